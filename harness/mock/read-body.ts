// Reading a request body within a size limit.
import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body up to `limit` bytes. A declared or actual size over the limit stops reading at once
 * (memory stays bounded whatever the client sends); the caller answers 413.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ body: Buffer } | { tooLarge: number } | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.pause();
    return Promise.resolve({ tooLarge: declared });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve({ tooLarge: size });
    };
    req.on('data', onData);
    req.once('end', () => resolve({ body: Buffer.concat(chunks) }));
    req.once('error', () => resolve('aborted'));
    req.once('aborted', () => resolve('aborted'));
  });
}
