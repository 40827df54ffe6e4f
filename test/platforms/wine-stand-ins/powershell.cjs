// Stand-in for powershell.exe under Wine, whose own is a stub that prints nothing. It answers only the
// process query of harness/process/process-table.ts (WINDOWS_PROCESS_QUERY), in the shape that query gives
// on Windows: one "ProcessId ParentProcessId CreationDate.Ticks Name" line per process. The processes come
// from Wine's own WMI (wmic.exe, the same Win32_Process class). Wine's Win32_Process has no CreationDate:
// the ticks are those of the first query that saw the process (pid, parent and name), kept in a folder so
// every later query gives the same value, which is what the tracker needs of a start time (identity across
// samples, and "not before the shim" for a child of the shim).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const QUERY =
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId) $($_.CreationDate.Ticks) $($_.Name)" }';
/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch. */
const EPOCH_TICKS = 621355968000000000n;

/** Parses wmic's table: columns start where their header words start. */
function parseWmicTable(text) {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines.shift() ?? '';
  const columns = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0].toLowerCase(), at: match.index }));
  return lines.map((line) => {
    const row = {};
    columns.forEach((column, i) => {
      row[column.name] = line.slice(column.at, columns[i + 1]?.at ?? line.length).trim();
    });
    return row;
  });
}

function firstSeenTicks(stateDir, pid, ppid, name, now) {
  const file = path.join(stateDir, `${pid}-${ppid}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  try {
    fs.writeFileSync(file, now, { flag: 'wx' });
    return now;
  } catch {
    return fs.readFileSync(file, 'utf8').trim() || now;
  }
}

/**
 * wmic's table of every process. Under Wine, wmic now and then prints nothing and never ends (seen about one
 * start in five): a start that has not finished within a few seconds is ended and tried again.
 */
function wmicProcesses(attempt = 1) {
  return new Promise((resolve, reject) => {
    const child = spawn('wmic', ['process', 'get', 'ProcessId,ParentProcessId,Name'], {
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const parts = [];
    const timer = setTimeout(() => {
      child.stdout.removeAllListeners('end');
      child.kill();
      if (attempt < WMIC_ATTEMPTS) resolve(wmicProcesses(attempt + 1));
      else reject(new Error(`wmic did not answer within ${WMIC_WAIT_MS} ms, ${WMIC_ATTEMPTS} times`));
    }, WMIC_WAIT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdout.on('data', (chunk) => parts.push(chunk));
    child.stdout.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(parts));
    });
  });
}
const WMIC_WAIT_MS = 6000;
const WMIC_ATTEMPTS = 3;

/** Runs the stand-in on `argv` (without the program); resolves to the exit code. */
async function powershellStandIn(argv) {
  const expected = ['-NoProfile', '-NonInteractive', '-Command', QUERY];
  if (argv.length !== expected.length || argv.some((arg, i) => arg !== expected[i])) {
    process.stderr.write(
      `powershell (Wine stand-in): only the process table query is available, not: ${argv.join(' ')}\n`,
    );
    return 1;
  }
  let raw;
  try {
    raw = await wmicProcesses();
  } catch (error) {
    process.stderr.write(`powershell (Wine stand-in): ${error.message}\n`);
    return 1;
  }
  // wmic writes UTF-16 (with a byte order mark) to a pipe.
  const text = raw[0] === 0xff && raw[1] === 0xfe ? raw.subarray(2).toString('utf16le') : raw.toString('utf8');
  const stateDir = process.env.YUME_WINE_PROCESS_STARTS ?? path.join(os.tmpdir(), 'yume-wine-process-starts');
  fs.mkdirSync(stateDir, { recursive: true });
  const lines = [];
  // One time for the whole query: a parent and the child it started, both new to this query, are equally old.
  const now = (BigInt(Date.now()) * 10000n + EPOCH_TICKS).toString();
  for (const row of parseWmicTable(text)) {
    if (!/^\d+$/.test(row.processid ?? '') || !/^\d+$/.test(row.parentprocessid ?? '')) continue;
    const ticks = firstSeenTicks(stateDir, row.processid, row.parentprocessid, row.name ?? '', now);
    lines.push(`${row.processid} ${row.parentprocessid} ${ticks} ${row.name ?? ''}`);
  }
  // Written before the exit: a wmic start that was ended may still hold the event loop open.
  await new Promise((resolve) => process.stdout.write(`${lines.join('\r\n')}\r\n`, resolve));
  return 0;
}

module.exports = { powershellStandIn, parseWmicTable, QUERY };
