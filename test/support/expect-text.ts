/** Browser tests' one wait: until an element's text matches (the page works asynchronously), then assert it. */
import type { Locator } from "playwright-core";

/** Polls up to 200 times, 100 ms apart (a bound on tries, not a time assertion), then asserts what it read. */
export async function expectText(locator: Locator, expected: string | RegExp): Promise<void> {
  let text = "";
  for (let attempt = 0; attempt < 200; attempt++) {
    text = ((await locator.first().textContent({ timeout: 20_000 })) ?? "").trim();
    if (typeof expected === "string" ? text === expected : expected.test(text)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (typeof expected === "string") expect(text).toBe(expected);
  else expect(text).toMatch(expected);
}
