// Types of harness-cpu.mjs for its test.
export interface HarnessCpu {
  measured: boolean;
  spawned: number;
  unmeasured: number;
  shimCpuMs: number;
  ownCpuMs: number;
  helpersCpuMs: number;
  harnessCpuMs: number;
}

export declare function harnessCpu(input: {
  ownCpuMs: number;
  childrenCpuMs: number;
  results: readonly { shimCpuMs?: number; processes?: readonly unknown[] }[];
}): HarnessCpu;

export declare function median(values: readonly number[]): number;

export declare function clockTicks(): number;

export declare function cpuNow(ticks: number): { own: number; children: number | undefined };
