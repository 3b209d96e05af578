/** How the messages the user reads are put together from other messages (a service's words, an error's). */

/** Ends a quoted message's sentence, so that the next one ("Run Sync states again") starts after a full stop. */
export const asSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** A message quoted in parentheses inside a sentence of its own: without its final full stop ("(Cancelled)"). */
export const inParentheses = (text: string) => `(${text.replace(/\.$/, "")})`;
