import type { Redis } from 'ioredis';

/*
 * The login throttle's two Redis scripts. Each runs atomically in Redis (one script at a time), so
 * however many attempts arrive at once, on however many replicas, each sees the counts every
 * earlier one left: an attempt is taken from every counter before its secret is checked, and a
 * burst of N attempts checks at most the limit. The counters are plain integers with an expiry
 * (the keys and format rate-limiter-flexible used before, so counts survive the upgrade).
 */

/**
 * KEYS: 1 (account, IP), 2 IP, 3 account, 4 the account's slow slot, 5 the account's attempts in
 * flight, [6 the pending sign-in's codes].
 * ARGV: 1–3 the caps of KEYS 1–3, 4 their window (ms), 5 the slow interval (ms), 6 the in-flight
 * cap (0: this attempt is not counted in flight), 7 the in-flight key's expiry (ms), 8 the codes
 * cap, 9 the codes key's expiry (ms).
 * Returns {0, reason, ms to wait} when refused (nothing counted), or {1, n1, n2, n3, n6} with the
 * counts after this attempt.
 */
const TAKE = `
local function count(key) return tonumber(redis.call('GET', key) or '0') end
local function left(key, fallback)
  local ms = redis.call('PTTL', key)
  if ms > 0 then return ms end
  return tonumber(fallback)
end
local function take(key, ttl)
  local n = redis.call('INCR', key)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ttl) end
  return n
end
local codes = #KEYS == 6
if codes and count(KEYS[6]) >= tonumber(ARGV[8]) then return {0, 'second_factor', 0} end
if count(KEYS[1]) >= tonumber(ARGV[1]) then return {0, 'account_ip', left(KEYS[1], ARGV[4])} end
if count(KEYS[2]) >= tonumber(ARGV[2]) then return {0, 'ip', left(KEYS[2], ARGV[4])} end
local inFlight = tonumber(ARGV[6])
if inFlight > 0 and count(KEYS[5]) >= inFlight then return {0, 'in_flight', 1000} end
if count(KEYS[3]) >= tonumber(ARGV[3]) then
  if not redis.call('SET', KEYS[4], '1', 'PX', ARGV[5], 'NX') then
    return {0, 'account_slowed', left(KEYS[4], ARGV[5])}
  end
end
local n1 = take(KEYS[1], ARGV[4])
local n2 = take(KEYS[2], ARGV[4])
local n3 = take(KEYS[3], ARGV[4])
if inFlight > 0 then
  redis.call('INCR', KEYS[5])
  redis.call('PEXPIRE', KEYS[5], ARGV[7])
end
local n6 = 0
if codes then n6 = take(KEYS[6], ARGV[9]) end
return {1, n1, n2, n3, n6}
`;

/** Gives one back on each key (never below zero, keeping its expiry). */
const GIVE_BACK = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0
`;

export interface TakeKeys {
  accountIp: string;
  ip: string;
  account: string;
  slow: string;
  inFlight: string;
  codes?: string;
}

export interface TakeLimits {
  maxPerAccountIp: number;
  maxPerIp: number;
  maxPerAccount: number;
  windowMs: number;
  slowMs: number;
  /** 0: the attempt is not counted in flight. */
  maxInFlight: number;
  inFlightTtlMs: number;
  maxCodes: number;
  codesTtlMs: number;
}

export type Taken =
  | { taken: false; reason: string; waitMs: number }
  | { taken: true; accountIp: number; ip: number; account: number; codes: number };

/** Takes one attempt from every counter, or none when one of them refuses it. */
export async function takeAttempt(redis: Redis, keys: TakeKeys, limits: TakeLimits): Promise<Taken> {
  const keyList = [keys.accountIp, keys.ip, keys.account, keys.slow, keys.inFlight];
  if (keys.codes !== undefined) keyList.push(keys.codes);
  const args = [
    limits.maxPerAccountIp,
    limits.maxPerIp,
    limits.maxPerAccount,
    limits.windowMs,
    limits.slowMs,
    limits.maxInFlight,
    limits.inFlightTtlMs,
    limits.maxCodes,
    limits.codesTtlMs,
  ];
  const reply = (await redis.eval(TAKE, keyList.length, ...keyList, ...args)) as (number | string)[];
  if (reply[0] !== 1) return { taken: false, reason: String(reply[1]), waitMs: Number(reply[2]) };
  const [, accountIp, ip, account, codes] = reply.map(Number);
  return { taken: true, accountIp: accountIp!, ip: ip!, account: account!, codes: codes! };
}

/** Gives one back on each of `keys` that still counts one. */
export async function giveBack(redis: Redis, keys: string[]): Promise<void> {
  if (keys.length > 0) await redis.eval(GIVE_BACK, keys.length, ...keys);
}

/**
 * KEYS: the counters; ARGV: 1 the window (ms), then each counter's cap in the order of KEYS.
 * Takes one from every counter, or (when one of them is full) from none. Returns {0, index of the
 * full counter (1-based), ms to wait} when refused, {1} when taken. The same take-first rule as
 * TAKE, for request counters that are not failures (the password reset's, per address and per IP).
 */
const TAKE_ALL = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    local ms = redis.call('PTTL', key)
    if ms <= 0 then ms = tonumber(ARGV[1]) end
    return {0, i, ms}
  end
end
for _, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[1]) end
end
return {1}
`;

/** Takes one from each counter (`[key, cap]`), or none; refused: which counter was full, and for how long. */
export async function takeFromAll(
  redis: Redis,
  counters: readonly (readonly [string, number])[],
  windowMs: number,
): Promise<{ taken: true } | { taken: false; full: number; waitMs: number }> {
  const keys = counters.map(([key]) => key);
  const caps = counters.map(([, cap]) => cap);
  const reply = (await redis.eval(TAKE_ALL, keys.length, ...keys, windowMs, ...caps)) as number[];
  if (reply[0] === 1) return { taken: true };
  return { taken: false, full: Number(reply[1]) - 1, waitMs: Number(reply[2]) };
}
