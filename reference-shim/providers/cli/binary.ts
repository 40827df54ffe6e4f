// Finds an official CLI on PATH the way a shell would, so a missing binary is reported as a configuration
// error (R5: system error, then an error result) before anything is spawned, and so Windows `.cmd`
// launchers (how npm installs gemini, codex and claude there) are recognised and started through cmd.exe.
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface LocatedBinary {
  file: string;
  /** A Windows batch launcher (.cmd/.bat): Node cannot spawn it without cmd.exe. */
  batch: boolean;
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `pathValue`; undefined when it is not installed. */
export function locateBinary(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): LocatedBinary | undefined {
  const pathValue = env.PATH ?? env.Path ?? '';
  const pathApi = platform === 'win32' ? win32 : posix;
  const extensions =
    platform === 'win32'
      ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD')
          .split(';')
          .filter(Boolean)
          .map((ext) => ext.toLowerCase())
      : [''];
  for (const directory of pathValue.split(pathApi.delimiter)) {
    if (!directory) continue;
    for (const extension of extensions) {
      const file = pathApi.join(directory, `${name}${extension}`);
      if (isExecutableFile(file, platform)) return { file, batch: extension === '.cmd' || extension === '.bat' };
    }
  }
  return undefined;
}
