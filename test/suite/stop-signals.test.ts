import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SuiteStop, stopSignalsFor } from '../../harness/suite/stop-signals.js';

/** A signal source that delivers signals on demand, as the process would. */
class FakeSignals extends EventEmitter {
  send(signal: NodeJS.Signals): void {
    this.emit(signal, signal);
  }
}

describe('stopSignalsFor', () => {
  it('listens to SIGINT, SIGTERM and SIGHUP on POSIX, SIGINT and SIGBREAK on Windows', () => {
    expect(stopSignalsFor('linux')).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP']);
    expect(stopSignalsFor('darwin')).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP']);
    expect(stopSignalsFor('win32')).toEqual(['SIGINT', 'SIGBREAK']);
  });
});

describe('SuiteStop', () => {
  it('stops once, on the first signal; a second one changes nothing', () => {
    const source = new FakeSignals();
    const seen: NodeJS.Signals[] = [];
    const stop = new SuiteStop(source, 'linux', (signal) => seen.push(signal));
    expect(stop.stopped).toBe(false);
    source.send('SIGTERM');
    source.send('SIGINT');
    expect(stop.stopped).toBe(true);
    expect(stop.signal).toBe('SIGTERM');
    expect(seen).toEqual(['SIGTERM']);
    stop.close();
  });

  it('removes its handlers when closed', () => {
    const source = new FakeSignals();
    const stop = new SuiteStop(source, 'linux');
    expect(source.listenerCount('SIGHUP')).toBe(1);
    stop.close();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM') + source.listenerCount('SIGHUP')).toBe(0);
    source.send('SIGINT');
    expect(stop.stopped).toBe(false);
  });
});
