// Session ids are file names and must match what the app's loader accepts: [A-Za-z0-9_-]+ (R8).
import { randomHex } from '../output/ids.js';
import { isIdText } from '../text/plain-match.js';

/** /^[A-Za-z0-9_-]{1,128}$/ */
export function isValidSessionId(id: string): boolean {
  return isIdText(id, 128);
}

export function newSessionId(): string {
  return `sess-${randomHex(12)}`;
}
