// Stand-in for bash.exe under Wine, which has no bash for Windows and cannot give Windows Node a Linux program to
// start (it runs one without a process handle). It hands its argv, working directory and environment to the
// lane's relay (test/platforms/wine-bash-relay.ts, at host:port in YUME_WINE_BASH_RELAY), which runs Debian's
// /bin/bash with them, and it passes on what comes back: stdout, stderr, then the exit code. Its stdin is not
// relayed (the Bash tools of the reference shim and the fake CLIs give a command none). Ended by a tree kill,
// its connection closes and the relay ends the command's whole process group.
const net = require('node:net');
const os = require('node:os');

const FRAME = { stdout: 1, stderr: 2, exit: 3 };

function fail(message, code) {
  process.stderr.write(`bash (Wine stand-in): ${message}\n`);
  return code;
}

/** Writes `chunk` to `stream`, pausing `socket` until the stream has taken it when it cannot at once. */
function passOn(stream, chunk, socket) {
  if (!stream.write(chunk)) {
    socket.pause();
    stream.once('drain', () => socket.resume());
  }
}

const flushed = (stream) => new Promise((resolve) => stream.write('', () => resolve()));

/** The exit status bash ended with, as a Windows exit code (a signal as 128 + its number, as bash reports it). */
function exitCode(status) {
  if (typeof status.code === 'number') return status.code;
  return 128 + (os.constants.signals[status.signal] ?? 0);
}

/** Runs the stand-in on `argv` (without the program); resolves to the exit code. */
function bashStandIn(argv) {
  const address = process.env.YUME_WINE_BASH_RELAY;
  const match = /^([\d.]+):(\d+)$/.exec(address ?? '');
  if (!match) return Promise.resolve(fail(`YUME_WINE_BASH_RELAY is ${address ?? 'not set'}, not host:port`, 127));
  return new Promise((resolve) => {
    const socket = net.connect({ host: match[1], port: Number(match[2]) });
    let pending = Buffer.alloc(0);
    let status;
    socket.on('connect', () => {
      socket.write(`${JSON.stringify({ args: argv, cwd: process.cwd(), env: process.env })}\n`);
    });
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
        const kind = pending.readUInt8(0);
        const body = pending.subarray(5, 5 + pending.readUInt32BE(1));
        pending = pending.subarray(5 + body.length);
        if (kind === FRAME.stdout) passOn(process.stdout, body, socket);
        else if (kind === FRAME.stderr) passOn(process.stderr, body, socket);
        else if (kind === FRAME.exit) status = JSON.parse(body.toString('utf8'));
      }
    });
    let problem;
    socket.on('error', (error) => {
      problem = error.message;
    });
    socket.on('close', async () => {
      if (status === undefined)
        return resolve(fail(`the relay at ${address} ${problem ?? 'closed the connection'} before bash exited`, 127));
      await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
      resolve(exitCode(status));
    });
  });
}

module.exports = { bashStandIn };
