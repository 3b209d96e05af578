// Rule: the connection and the cache time are kept in the device's storage: a session opened later on the same device
// (the add-in reopened) finds them, reads settings an earlier session saved, falls back to the defaults when there is
// nothing usable, and forgets the connection on disconnect.
import { NotConnectedError, Session, SpendClient, memoryStorage } from "../../src/api";

const CONNECTION = { baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_session_device" };
const NOT_CONNECTED = new NotConnectedError("Not connected: open the Spend Sync taskpane and connect to the service first.");

describe("the connection", () => {
  it("saved by connect is found by a session opened later, whose client talks to the same service", () => {
    const storage = memoryStorage();
    const first = new Session(storage);
    const client = first.connect({ ...CONNECTION, baseUrl: ` ${CONNECTION.baseUrl}/ ` });
    expect(first.currentClient()).toBe(client);
    const later = new Session(storage);
    expect(later.connection()).toEqual(CONNECTION);
    const again = later.currentClient();
    expect(again).toBeInstanceOf(SpendClient);
    expect([again.baseUrl, again.enterpriseId]).toEqual([CONNECTION.baseUrl, CONNECTION.enterpriseId]);
    expect(later.currentClient()).toBe(again);
  });

  it("none saved: no connection, and asking for a client says to connect first", () => {
    const session = new Session(memoryStorage());
    expect(session.connection()).toBeNull();
    expect(() => session.currentClient()).toThrow(NOT_CONNECTED);
  });

  it.each<[string, string]>([
    ["without a base URL", JSON.stringify({ enterpriseId: "ent-1", apiKey: "k" })],
    ["without an enterprise id", JSON.stringify({ baseUrl: CONNECTION.baseUrl, apiKey: "k" })],
    ["without a key", JSON.stringify({ baseUrl: CONNECTION.baseUrl, enterpriseId: "ent-1" })],
    ["that is not JSON", "{baseUrl:"],
  ])("a saved connection %s is none", (_what, saved) => {
    const storage = memoryStorage();
    storage.setItem("spendsync.connection", saved);
    const session = new Session(storage);
    expect(session.connection()).toBeFalsy();
    expect(() => session.currentClient()).toThrow(NOT_CONNECTED);
  });

  it("disconnect forgets it, on this session and the next", () => {
    const storage = memoryStorage();
    const session = new Session(storage);
    session.connect(CONNECTION);
    session.disconnect();
    expect(session.connection()).toBeNull();
    expect(() => session.currentClient()).toThrow(NOT_CONNECTED);
    expect(new Session(storage).connection()).toBeNull();
  });
});

describe("a connection tested before it is saved (issue 43)", () => {
  const OTHER = { baseUrl: "https://other.example/api", enterpriseId: "ent-2", apiKey: "sk_test_mistyped" };

  it("whose test fails replaces nothing: the saved connection, its client and the cached results stay", async () => {
    const storage = memoryStorage();
    const session = new Session(storage);
    const working = session.connect(CONNECTION);
    await session.governor.run("a cached result", async () => 42);
    const saved = storage.getItem("spendsync.connection");
    const tried: string[] = [];
    await expect(session.connectTested(OTHER, async (candidate) => {
      tried.push(`${candidate.baseUrl} ${candidate.enterpriseId}`);
      throw new NotConnectedError("refused");
    })).rejects.toThrow("refused");
    expect(tried).toEqual([`${OTHER.baseUrl} ${OTHER.enterpriseId}`]);
    expect(storage.getItem("spendsync.connection")).toBe(saved);
    expect(session.currentClient()).toBe(working);
    expect(session.governor.size).toBe(1);
    expect(new Session(storage).connection()).toEqual(CONNECTION);
  });

  it("whose test passes is saved, in use, and starts with no cached results", async () => {
    const storage = memoryStorage();
    const session = new Session(storage);
    session.connect(CONNECTION);
    await session.governor.run("a cached result", async () => 42);
    const { client, tested } = await session.connectTested(OTHER, async (candidate) => candidate.enterpriseId);
    expect(tested).toBe("ent-2");
    expect(session.currentClient()).toBe(client);
    expect(session.governor.size).toBe(0);
    expect(new Session(storage).connection()).toEqual(OTHER);
  });

  it("with nothing saved, a failed test leaves nothing saved", async () => {
    const storage = memoryStorage();
    const session = new Session(storage);
    await expect(session.connectTested(OTHER, async () => { throw new NotConnectedError("refused"); })).rejects.toThrow("refused");
    expect(storage.getItem("spendsync.connection")).toBeNull();
    expect(() => session.currentClient()).toThrow(NOT_CONNECTED);
  });
});

describe("the cache time", () => {
  it("is 5 minutes when nothing was saved", () => {
    expect(new Session(memoryStorage()).cacheMinutes).toBe(5);
  });

  it("saved by an earlier version of the add-in is read", () => {
    const storage = memoryStorage();
    storage.setItem("spendsync.cacheMinutes", "2");
    const session = new Session(storage);
    expect(session.cacheMinutes).toBe(2);
    expect(session.governor.cacheMs).toBe(120_000);
  });

  it("saved as something that is not a number is 5 minutes", () => {
    const storage = memoryStorage();
    storage.setItem("spendsync.cacheMinutes", "soon");
    expect(new Session(storage).cacheMinutes).toBe(5);
  });

  it.each([0, 2, 0.5])("set to %p minutes holds now and in a session opened later", (minutes) => {
    const storage = memoryStorage();
    const session = new Session(storage);
    session.setCacheMinutes(minutes);
    expect(session.cacheMinutes).toBe(minutes);
    expect(session.governor.cacheMs).toBe(minutes * 60_000);
    expect(new Session(storage).cacheMinutes).toBe(minutes);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("%p minutes is refused, and the time stays", (minutes) => {
    const session = new Session(memoryStorage());
    expect(() => session.setCacheMinutes(minutes)).toThrow(new RangeError("The cache time must be a number of minutes, 0 or more."));
    expect(session.cacheMinutes).toBe(5);
  });
});
