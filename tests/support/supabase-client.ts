import fs from 'node:fs';
import path from 'node:path';
import { createClient, type AuthChangeEvent, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

/**
 * The real, unmodified supabase-js client pointed at a test server, with in-memory storage and an
 * event log. On Node 20 supabase-js needs a WebSocket class for its (unused) realtime client.
 */
export type MemoryStorage = Map<string, string> & {
  getItem: (key: string) => string | null;
  setItem: (key: string, value: string) => void;
  removeItem: (key: string) => void;
};

export function memoryStorage(initial: Record<string, string> = {}): MemoryStorage {
  const map = new Map(Object.entries(initial)) as MemoryStorage;
  map.getItem = (key) => map.get(key) ?? null;
  map.setItem = (key, value) => void map.set(key, value);
  map.removeItem = (key) => void map.delete(key);
  return map;
}

export type TestClient = { sb: SupabaseClient; events: AuthChangeEvent[]; storage: MemoryStorage; storageKey: string };

export function storageKeyFor(baseUrl: string): string {
  return `sb-${new URL(baseUrl).hostname.split('.')[0]}-auth-token`;
}

export function testClient(baseUrl: string, anonKey: string, storage: MemoryStorage = memoryStorage()): TestClient {
  const sb = createClient(baseUrl, anonKey, {
    auth: { storage, autoRefreshToken: false, detectSessionInUrl: false, persistSession: true },
    // supabase-js types its transport loosely; ws's class is what it uses on Node without a global WebSocket.
    realtime: { transport: WebSocket as never },
  });
  const events: AuthChangeEvent[] = [];
  sb.auth.onAuthStateChange((event) => {
    events.push(event);
  });
  return { sb, events, storage, storageKey: storageKeyFor(baseUrl) };
}

/** The anon key exactly as the browser gets it: from /app-config.js. */
export async function fetchAnonKey(baseUrl: string): Promise<string> {
  const script = await (await fetch(`${baseUrl}/app-config.js`)).text();
  const match = /"anonKey":"([^"]+)"/.exec(script);
  if (!match?.[1]) throw new Error(`no anon key in /app-config.js: ${script}`);
  return match[1];
}

export type OutboxMessage = { kind: string; to: string; subject: string; text: string; otp: string; link: string; created_at: string };

/** Every message in the development outbox for an address, oldest first. */
export function outbox(dataDir: string, to: string): OutboxMessage[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as OutboxMessage)
    .filter((m) => m.to === to.toLowerCase());
}

export function lastEmail(dataDir: string, to: string): OutboxMessage {
  const messages = outbox(dataDir, to);
  const last = messages.at(-1);
  if (!last) throw new Error(`no email for ${to}`);
  return last;
}

let counter = 0;
export function freshEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
