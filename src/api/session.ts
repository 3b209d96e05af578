/**
 * The connection of this device: base URL, enterprise id and key, kept in the device's storage (never in
 * the workbook), the request governor, and a client built from them. The taskpane, the ribbon commands and
 * the custom functions share one Session in the shared runtime.
 */
import { SpendClient, type ClientConfig } from "./client";
import { SpendSyncError } from "./errors";
import { DEFAULT_CACHE_MS, RequestGovernor } from "./governor";

/** The part of the Web Storage API used (localStorage in the Office webview). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Connection {
  baseUrl: string;
  enterpriseId: string;
  apiKey: string;
}

const STORAGE_KEY = "spendsync.connection";
const CACHE_KEY = "spendsync.cacheMinutes";

/** No connection saved on this device yet. */
export class NotConnectedError extends SpendSyncError {
  override readonly name = "NotConnectedError";
}

export class Session {
  readonly governor: RequestGovernor;
  private client: SpendClient | null = null;

  constructor(
    private readonly storage: KeyValueStorage,
    /** Extra client settings (a transport in tests, a timeout). */
    private readonly clientDefaults: Partial<ClientConfig> = {},
  ) {
    const minutes = Number(storage.getItem(CACHE_KEY));
    this.governor = new RequestGovernor(Number.isFinite(minutes) && storage.getItem(CACHE_KEY) !== null ? minutes * 60_000 : DEFAULT_CACHE_MS);
  }

  /** The saved connection, or null. */
  connection(): Connection | null {
    const raw = this.storage.getItem(STORAGE_KEY);
    if (!raw) return null;
    try {
      const c = JSON.parse(raw) as Connection;
      return c.baseUrl && c.enterpriseId && c.apiKey ? c : null;
    } catch {
      return null;
    }
  }

  /** Saves a connection on this device (after checking it builds a client) and forgets cached results. */
  connect(connection: Connection): SpendClient {
    return this.save(new SpendClient({ ...this.clientDefaults, ...connection }), connection);
  }

  /**
   * Saves a connection only once `test` passed with its client: a mistyped key or a network blip must not cost
   * the connection that worked (every =SPEND formula of every open workbook uses it). A failed test (it throws)
   * leaves the saved connection, its client and the cached results exactly as they were.
   */
  async connectTested<T>(connection: Connection, test: (client: SpendClient) => Promise<T>): Promise<{ client: SpendClient; tested: T }> {
    const candidate = new SpendClient({ ...this.clientDefaults, ...connection });
    const tested = await test(candidate);
    return { client: this.save(candidate, connection), tested };
  }

  private save(client: SpendClient, connection: Connection): SpendClient {
    this.storage.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: client.baseUrl, enterpriseId: client.enterpriseId, apiKey: connection.apiKey.trim() }));
    this.client = client;
    this.governor.clear();
    return client;
  }

  /**
   * Team mode: the client `build` makes (through the gateway, with the person's token) is kept in memory only,
   * and a key saved here for single-person mode is removed from this device: in team mode no desk holds one.
   */
  useTeam(build: (defaults: Partial<ClientConfig>) => SpendClient): SpendClient {
    this.storage.removeItem(STORAGE_KEY);
    this.client = build(this.clientDefaults);
    this.governor.clear();
    return this.client;
  }

  disconnect(): void {
    this.storage.removeItem(STORAGE_KEY);
    this.client = null;
    this.governor.clear();
  }

  /** The client of the saved connection; throws NotConnectedError when there is none. */
  currentClient(): SpendClient {
    if (this.client) return this.client;
    const connection = this.connection();
    if (!connection) throw new NotConnectedError("Not connected: open the Spend Sync taskpane and connect to the service first.");
    this.client = new SpendClient({ ...this.clientDefaults, ...connection });
    return this.client;
  }

  setCacheMinutes(minutes: number): void {
    // A programming error's RangeError (the tests pin the class): the taskpane offers only whole minutes from 0.
    // eslint-disable-next-line no-restricted-syntax
    if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError("The cache time must be a number of minutes, 0 or more.");
    this.storage.setItem(CACHE_KEY, String(minutes));
    this.governor.cacheMs = minutes * 60_000;
  }

  get cacheMinutes(): number {
    return this.governor.cacheMs / 60_000;
  }
}

/** A storage that lives in memory (tests, and browsers without localStorage). */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}
