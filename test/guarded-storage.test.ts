/**
 * The device storage under Office's rules: keys in Office's partition, and a blocked localStorage that the user
 * hears about once instead of a SecurityError breaking the taskpane or the functions.
 */
import { Session, memoryStorage, type KeyValueStorage } from "../src/api";
import { guardedStorage, storageBlockedMessage } from "../src/guarded-storage";
import { FunctionError, installCustomFunctionsStub, invocation } from "./support/custom-functions";

const connection = { baseUrl: "https://api.example.com", enterpriseId: "7c0e4b1a-2f7e-4d2b-9a51-3c6f2b8e9d10", apiKey: "sk-secret" };

function securityError(): Error {
  const error = new Error("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.");
  error.name = "SecurityError";
  return error;
}

/** A localStorage whose every call throws, as with blocked third-party storage. */
const throwingStorage: KeyValueStorage = {
  getItem: () => { throw securityError(); },
  setItem: () => { throw securityError(); },
  removeItem: () => { throw securityError(); },
};

describe("partitioned keys", () => {
  it("with Office.context.partitionKey, the saved connection lives under the partition's keys only", () => {
    const device = new Map<string, string>();
    const raw: KeyValueStorage = { getItem: (k) => device.get(k) ?? null, setItem: (k, v) => void device.set(k, v), removeItem: (k) => void device.delete(k) };
    new Session(guardedStorage(() => raw, { partitionKey: "excel.cloud.microsoft|addin#" })).connect(connection);
    expect([...device.keys()]).toEqual(["excel.cloud.microsoft|addin#spendsync.connection"]);

    expect(new Session(guardedStorage(() => raw, { partitionKey: "excel.cloud.microsoft|addin#" })).connection()?.enterpriseId).toBe(connection.enterpriseId);
    expect(new Session(guardedStorage(() => raw, { partitionKey: "word.cloud.microsoft|addin#" })).connection()).toBeNull();
    expect(new Session(guardedStorage(() => raw)).connection()).toBeNull();
  });

  it("without a partition key (Office on Windows), keys are unprefixed", () => {
    const raw = memoryStorage();
    new Session(guardedStorage(() => raw, { partitionKey: undefined })).connect(connection);
    expect(raw.getItem("spendsync.connection")).toContain(connection.enterpriseId);
  });
});

describe("blocked storage", () => {
  it("a localStorage that throws on access: the Session starts not connected, the block is reported once, nothing throws", () => {
    const reasons: string[] = [];
    const storage = guardedStorage(() => { throw securityError(); }, { onBlocked: (r) => reasons.push(r) });
    const session = new Session(storage);
    expect(session.connection()).toBeNull();
    expect(() => session.currentClient()).toThrow(/^Not connected/);
    expect(storage.blocked).toBe("SecurityError");
    expect(() => session.setCacheMinutes(10)).not.toThrow();
    expect(reasons).toEqual(["SecurityError"]);
  });

  it("a connection made while storage is blocked holds until Excel closes, and is not written anywhere", () => {
    const storage = guardedStorage(() => throwingStorage);
    const session = new Session(storage);
    session.connect(connection);
    expect(storage.blocked).toBe("SecurityError");
    expect(session.connection()?.apiKey).toBe("sk-secret");
    expect(new Session(guardedStorage(() => throwingStorage)).connection()).toBeNull();
  });

  it("a storage that reads but refuses writes (quota or privacy mode) is reported when the key is saved", () => {
    const reasons: string[] = [];
    const quota = new Error("The quota has been exceeded.");
    quota.name = "QuotaExceededError";
    const storage = guardedStorage(() => ({ getItem: () => null, setItem: () => { throw quota; }, removeItem: () => undefined }), { onBlocked: (r) => reasons.push(r) });
    const session = new Session(storage);
    expect(reasons).toEqual([]);
    session.connect(connection);
    expect(reasons).toEqual(["QuotaExceededError"]);
    expect(session.connection()?.enterpriseId).toBe(connection.enterpriseId);
  });

  it("the taskpane says so in one sentence that names the error and that the key can't be remembered", () => {
    const message = storageBlockedMessage("SecurityError");
    expect(message).toMatch(/^This Excel blocks the add-in's storage \(SecurityError[^)]*\), so the key can't be remembered: .*\.$/);
    expect(message.match(/\.(\s|$)/g)).toHaveLength(1);
  });

  it("the =SPEND functions answer #VALUE! \"Not connected\" when localStorage throws on access", async () => {
    installCustomFunctionsStub();
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
    Object.defineProperty(globalThis, "localStorage", { configurable: true, get: () => { throw securityError(); } });
    try {
      let functions!: typeof import("../src/functions/functions");
      // A fresh module registry, so the functions build their Session now, over the throwing localStorage.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
      jest.isolateModules(() => { functions = require("../src/functions/functions"); });
      const error = await functions.cards(null, invocation()).then(() => null, (e: FunctionError) => e);
      expect(error).toBeInstanceOf(FunctionError);
      expect(error).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/^Not connected/) });
    } finally {
      if (descriptor) Object.defineProperty(globalThis, "localStorage", descriptor);
      else delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });
});
