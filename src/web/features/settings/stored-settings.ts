import { useState } from 'react';
import { useAuth } from '../auth/use-auth.ts';

/**
 * Notification, recording, privacy and billing preferences live in this browser's localStorage for
 * now, one key per tab and per account (two people sharing a browser do not see each other's
 * billing details). A later issue moves them to the server; until then they change nothing outside
 * this screen. What is read back is checked field by field, so a stale or hand-edited entry falls
 * back to the defaults instead of breaking the page.
 */
export type SettingsValues = Record<string, string | boolean>;

/** For select fields: the values a stored string may take. */
export type Choices<T extends SettingsValues> = Partial<Record<keyof T, readonly string[]>>;

export const storageKey = (tab: string, userId: string): string => `parley:settings:${tab}:${userId}`;

export function readSettings<T extends SettingsValues>(key: string, defaults: T, choices: Choices<T> = {}): T {
  const result = { ...defaults };
  let parsed: unknown;
  try {
    parsed = JSON.parse(window.localStorage.getItem(key) ?? 'null');
  } catch {
    return result; // unreadable JSON, or storage blocked by the browser
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return result;
  const stored = parsed as Record<string, unknown>;
  for (const field of Object.keys(defaults) as (keyof T & string)[]) {
    const value = stored[field];
    if (typeof value !== typeof defaults[field]) continue;
    const allowed = choices[field];
    if (allowed && !allowed.includes(value as string)) continue;
    result[field] = value as T[typeof field];
  }
  return result;
}

/** False when the browser refuses to store (private mode, quota). */
export function writeSettings(key: string, values: SettingsValues): boolean {
  try {
    window.localStorage.setItem(key, JSON.stringify(values));
    return true;
  } catch {
    return false;
  }
}

/**
 * A tab's form state for the signed-in person, starting from what was stored; `save` writes the
 * current values. The screen sits behind the login guard, so the user does not change under it.
 */
export function useStoredSettings<T extends SettingsValues>(tab: string, defaults: T, choices?: Choices<T>) {
  const { user } = useAuth();
  const key = storageKey(tab, user?.id ?? 'signed-out');
  const [values, setValues] = useState<T>(() => readSettings(key, defaults, choices));
  const set = <K extends keyof T>(field: K, value: T[K]) => setValues((current) => ({ ...current, [field]: value }));
  const save = () => writeSettings(key, values);
  return { values, set, setValues, save };
}

/** Narrows a select's string to one of its option values. */
export function isOneOf<V extends string>(options: readonly { value: V }[], value: string): value is V {
  return options.some((option) => option.value === value);
}

export const valuesOf = <V extends string>(options: readonly { value: V }[]): readonly V[] => options.map((option) => option.value);
