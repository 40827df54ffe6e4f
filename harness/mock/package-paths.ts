// The package's scenario folders, whether running from sources (harness/...) or from the bundle (dist/).
import path from 'node:path';
import { findPackageRoot } from '../package-root.js';

export function defaultTranscriptsDir(): string {
  return path.join(findPackageRoot(), 'transcripts');
}
