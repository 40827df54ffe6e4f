// What a shim writes to stdout and stderr, kept up to a cap so a flooding shim cannot exhaust memory: the raw
// stdout bytes (R9) with each chunk's arrival time, and the totals written including what went past the cap.
import type { StdoutChunkTime } from '../shim-process.js';

export interface OutputCaptureOptions {
  maxStdoutBytes: number;
  maxStderrBytes: number;
  /** Called for every stdout chunk kept, as it arrives (ms since spawn). */
  onStdout?: (chunk: Buffer, atMs: number) => void;
  /** Called once, when stdout first goes past its cap. */
  onFlood: () => void;
}

export class OutputCapture {
  readonly stdoutChunks: StdoutChunkTime[] = [];
  /** Total bytes written to stdout, including any beyond the cap. */
  stdoutBytes = 0;
  stderrBytes = 0;
  flooded = false;
  private readonly stdoutParts: Buffer[] = [];
  private storedStdout = 0;
  private readonly stderrParts: Buffer[] = [];
  private storedStderr = 0;

  constructor(private readonly options: OutputCaptureOptions) {}

  takeStdout(chunk: Buffer, atMs: number): void {
    const max = this.options.maxStdoutBytes;
    this.stdoutBytes += chunk.length;
    if (this.storedStdout < max) {
      const kept = chunk.length <= max - this.storedStdout ? chunk : chunk.subarray(0, max - this.storedStdout);
      this.stdoutParts.push(kept);
      this.storedStdout += kept.length;
      this.stdoutChunks.push({ end: this.storedStdout, atMs });
      this.options.onStdout?.(kept, atMs);
    }
    if (this.stdoutBytes > max && !this.flooded) {
      this.flooded = true;
      this.options.onFlood();
    }
  }

  takeStderr(chunk: Buffer): void {
    this.stderrBytes += chunk.length;
    if (this.storedStderr < this.options.maxStderrBytes) {
      const kept = chunk.subarray(0, this.options.maxStderrBytes - this.storedStderr);
      this.stderrParts.push(kept);
      this.storedStderr += kept.length;
    }
  }

  /** The stdout bytes kept, exactly as written. */
  stdout(): Buffer {
    return Buffer.concat(this.stdoutParts);
  }

  stderr(): Buffer {
    return Buffer.concat(this.stderrParts);
  }
}
