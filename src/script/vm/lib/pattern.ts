/**
 * Lua 5.1 patterns (the matching used by string.find / match / gmatch / gsub), written for scry from the reference
 * manual's definition (§5.4.1): single-character classes (`.`, `%a %c %d %l %p %s %u %w %x %z` and their
 * complements, `%` escapes, sets with ranges and classes), the quantifiers `* + - ?`, captures and position
 * captures, back-references `%1`–`%9`, `%bxy`, the frontier `%f[set]`, and the anchors `^` (find, match, gsub) and
 * `$`. Character classes are those of the C locale. Subjects and patterns are byte strings (one char per byte).
 *
 * Matching charges the VM's instruction budget (one unit per matcher step), so a pathological pattern cannot hang
 * the host; nesting deeper than {@link MAX_MATCH_DEPTH} raises "pattern too complex".
 */
import type { LuaThread } from '../thread.ts';
import { charge, libError } from './aux.ts';

export const MAX_CAPTURES = 32;
export const MAX_MATCH_DEPTH = 4000;
const CAP_UNFINISHED = -1;
const CAP_POSITION = -2;
const ESC = 37; // '%'

/** Matcher state. Capture i spans `[capStart[i], capStart[i] + capLen[i])`, or is a position (`CAP_POSITION`). */
export class MatchState {
  src = '';
  pat = '';
  level = 0;
  // plain arrays growing one capture at a time (captures open in order): a typed array is an ArrayBuffer, whose
  // allocation costs more than most matches (one state per find/match/gmatch/gsub call)
  readonly capStart: number[] = [];
  readonly capLen: number[] = [];
  L: LuaThread;
  depth = 0;
  steps = 0;
  constructor(L: LuaThread) {
    this.L = L;
  }
  reset(src: string, pat: string): void {
    this.src = src;
    this.pat = pat;
    this.level = 0;
    this.depth = 0;
  }
  error(msg: string): never {
    libError(this.L, msg);
  }
  tick(): void {
    if (++this.steps >= 256) {
      charge(this.L, this.steps);
      this.steps = 0;
    }
  }
  flush(): void {
    if (this.steps > 0) charge(this.L, this.steps);
    this.steps = 0;
  }
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
function isCntrl(c: number): boolean {
  return c < 32 || c === 127;
}
function isPunct(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}
function isXDigit(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** `%x` class test (cl is the class letter). */
function matchClass(c: number, cl: number): boolean {
  let res: boolean;
  switch (cl | 32) {
    case 97: // a
      res = isAlpha(c);
      break;
    case 99: // c
      res = isCntrl(c);
      break;
    case 100: // d
      res = isDigit(c);
      break;
    case 108: // l
      res = isLower(c);
      break;
    case 112: // p
      res = isPunct(c);
      break;
    case 115: // s
      res = isSpace(c);
      break;
    case 117: // u
      res = isUpper(c);
      break;
    case 119: // w
      res = isAlpha(c) || isDigit(c);
      break;
    case 120: // x
      res = isXDigit(c);
      break;
    case 122: // z
      res = c === 0;
      break;
    default:
      return cl === c;
  }
  return isUpper(cl) ? !res : res;
}

/** End (exclusive) of the single-char class starting at p. */
function classEnd(ms: MatchState, p: number): number {
  const pat = ms.pat;
  const c = pat.charCodeAt(p++);
  if (c === ESC) {
    if (p >= pat.length) ms.error("malformed pattern (ends with '%')");
    return p + 1;
  }
  if (c === 91) {
    // '['
    if (pat.charCodeAt(p) === 94) p++;
    do {
      if (p >= pat.length) ms.error("malformed pattern (missing ']')");
      const cc = pat.charCodeAt(p++);
      if (cc === ESC && p < pat.length) p++;
    } while (pat.charCodeAt(p) !== 93);
    return p + 1;
  }
  return p;
}

/** Set test: `p` at '[', `ec` at its ']'. */
function matchBracketClass(ms: MatchState, c: number, p: number, ec: number): boolean {
  const pat = ms.pat;
  let sig = true;
  if (pat.charCodeAt(p + 1) === 94) {
    sig = false;
    p++;
  }
  while (++p < ec) {
    const pc = pat.charCodeAt(p);
    if (pc === ESC) {
      p++;
      if (matchClass(c, pat.charCodeAt(p))) return sig;
    } else if (pat.charCodeAt(p + 1) === 45 && p + 2 < ec) {
      // range a-z
      p += 2;
      if (pc <= c && c <= pat.charCodeAt(p)) return sig;
    } else if (pc === c) return sig;
  }
  return !sig;
}

function singleMatch(ms: MatchState, s: number, p: number, ep: number): boolean {
  if (s >= ms.src.length) return false;
  const c = ms.src.charCodeAt(s);
  const pc = ms.pat.charCodeAt(p);
  switch (pc) {
    case 46: // '.'
      return true;
    case ESC:
      return matchClass(c, ms.pat.charCodeAt(p + 1));
    case 91:
      return matchBracketClass(ms, c, p, ep - 1);
    default:
      return pc === c;
  }
}

function matchBalance(ms: MatchState, s: number, p: number): number {
  if (p + 1 >= ms.pat.length) ms.error("malformed pattern (missing arguments to '%b')");
  const src = ms.src;
  if (s >= src.length || src.charCodeAt(s) !== ms.pat.charCodeAt(p)) return -1;
  const b = ms.pat.charCodeAt(p);
  const e = ms.pat.charCodeAt(p + 1);
  let cont = 1;
  while (++s < src.length) {
    ms.tick();
    const c = src.charCodeAt(s);
    if (c === e) {
      if (--cont === 0) return s + 1;
    } else if (c === b) cont++;
  }
  return -1;
}

function maxExpand(ms: MatchState, s: number, p: number, ep: number): number {
  let i = 0;
  while (singleMatch(ms, s + i, p, ep)) {
    i++;
    ms.tick();
  }
  while (i >= 0) {
    const res = doMatch(ms, s + i, ep + 1);
    if (res !== -1) return res;
    i--;
  }
  return -1;
}

function minExpand(ms: MatchState, s: number, p: number, ep: number): number {
  for (;;) {
    ms.tick();
    const res = doMatch(ms, s, ep + 1);
    if (res !== -1) return res;
    if (singleMatch(ms, s, p, ep)) s++;
    else return -1;
  }
}

function startCapture(ms: MatchState, s: number, p: number, what: number): number {
  if (ms.level >= MAX_CAPTURES) ms.error('too many captures');
  ms.capStart[ms.level] = s;
  ms.capLen[ms.level] = what;
  ms.level++;
  const res = doMatch(ms, s, p);
  if (res === -1) ms.level--;
  return res;
}

function captureToClose(ms: MatchState): number {
  let level = ms.level;
  for (level--; level >= 0; level--) if (ms.capLen[level] === CAP_UNFINISHED) return level;
  return ms.error('invalid pattern capture');
}

function endCapture(ms: MatchState, s: number, p: number): number {
  const l = captureToClose(ms);
  ms.capLen[l] = s - ms.capStart[l]!;
  const res = doMatch(ms, s, p);
  if (res === -1) ms.capLen[l] = CAP_UNFINISHED;
  return res;
}

function checkCapture(ms: MatchState, l: number): number {
  l -= 49; // '1'
  if (l < 0 || l >= ms.level || ms.capLen[l] === CAP_UNFINISHED) return ms.error('invalid capture index');
  return l;
}

function matchCapture(ms: MatchState, s: number, l: number): number {
  l = checkCapture(ms, l);
  const len = ms.capLen[l]!;
  const start = ms.capStart[l]!;
  if (ms.src.length - s >= len && ms.src.substr(start, len) === ms.src.substr(s, len)) return s + len;
  return -1;
}

/** Matches pattern from `p` against the subject from `s`; the end of the match, or -1. */
export function doMatch(ms: MatchState, s: number, p: number): number {
  if (++ms.depth > MAX_MATCH_DEPTH) ms.error('pattern too complex');
  const pat = ms.pat;
  try {
    for (;;) {
      ms.tick();
      if (p >= pat.length) return s;
      const pc = pat.charCodeAt(p);
      switch (pc) {
        case 40: // '('
          if (pat.charCodeAt(p + 1) === 41) return startCapture(ms, s, p + 2, CAP_POSITION);
          return startCapture(ms, s, p + 1, CAP_UNFINISHED);
        case 41: // ')'
          return endCapture(ms, s, p + 1);
        case ESC: {
          const nc = pat.charCodeAt(p + 1);
          if (nc === 98) {
            // %b
            s = matchBalance(ms, s, p + 2);
            if (s !== -1) {
              p += 4;
              continue;
            }
            return -1;
          }
          if (nc === 102) {
            // %f
            p += 2;
            if (pat.charCodeAt(p) !== 91) ms.error("missing '[' after '%f' in pattern");
            const ep = classEnd(ms, p);
            const prev = s === 0 ? 0 : ms.src.charCodeAt(s - 1);
            const cur = s < ms.src.length ? ms.src.charCodeAt(s) : 0;
            if (!matchBracketClass(ms, prev, p, ep - 1) && matchBracketClass(ms, cur, p, ep - 1)) {
              p = ep;
              continue;
            }
            return -1;
          }
          if (isDigit(nc)) {
            s = matchCapture(ms, s, nc);
            if (s !== -1) {
              p += 2;
              continue;
            }
            return -1;
          }
          break;
        }
        case 36: // '$'
          if (p + 1 === pat.length) return s === ms.src.length ? s : -1;
          break;
      }
      const ep = classEnd(ms, p);
      const m = singleMatch(ms, s, p, ep);
      const q = pat.charCodeAt(ep);
      if (q === 63) {
        // '?'
        if (m) {
          const res = doMatch(ms, s + 1, ep + 1);
          if (res !== -1) return res;
        }
        p = ep + 1;
        continue;
      }
      if (q === 42) return maxExpand(ms, s, p, ep); // '*'
      if (q === 43) return m ? maxExpand(ms, s + 1, p, ep) : -1; // '+'
      if (q === 45) return minExpand(ms, s, p, ep); // '-'
      if (!m) return -1;
      s++;
      p = ep;
    }
  } finally {
    ms.depth--;
  }
}

/** Capture i as a Lua value (a string, or a position number); the whole match when there are no captures. */
export function getCapture(ms: MatchState, i: number, s: number, e: number): string | number {
  if (i >= ms.level) {
    if (i === 0) return ms.src.slice(s, e);
    return ms.error('invalid capture index');
  }
  const l = ms.capLen[i]!;
  if (l === CAP_UNFINISHED) ms.error('unfinished capture');
  if (l === CAP_POSITION) return ms.capStart[i]! + 1;
  return ms.src.substr(ms.capStart[i]!, l);
}

/** Characters that make a pattern more than a plain string (`SPECIALS` of lstrlib). */
export function hasSpecials(p: string): boolean {
  return /[\^$*+?.([%-]/.test(p);
}
