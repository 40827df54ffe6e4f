// The tools the shim can run, in the order they are declared. Only tools that can actually run here are
// offered (init.tools and the provider declarations, R3): Bash needs bash on PATH (R11).

import { bashTool, findBash } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { multiEditTool } from './multi-edit.js';
import { readTool } from './read.js';
import type { ToolSpec } from './types.js';
import { type Tool, type ToolContext, ToolInputError, type ToolOutcome } from './types.js';
import { writeTool } from './write.js';

export class ToolRegistry {
  private readonly byName: Map<string, Tool>;

  constructor(readonly tools: readonly Tool[]) {
    this.byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  }

  static available(env: NodeJS.ProcessEnv = process.env): ToolRegistry {
    const tools = [readTool, writeTool, editTool, multiEditTool, globTool, grepTool, lsTool];
    if (findBash(env)) tools.push(bashTool);
    return new ToolRegistry(tools);
  }

  get names(): string[] {
    return this.tools.map((tool) => tool.spec.name);
  }

  get specs(): ToolSpec[] {
    return this.tools.map((tool) => tool.spec);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Runs a tool; every refusal or failure becomes an error outcome with a readable message. */
  async run(name: string, input: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.byName.get(name);
    if (!tool) return { content: `Unknown tool ${name}. Available tools: ${this.names.join(', ')}.`, isError: true };
    try {
      return await tool.run(input, context);
    } catch (error) {
      if (error instanceof ToolInputError) return { content: context.redactor.redact(error.message), isError: true };
      const code = (error as NodeJS.ErrnoException).code;
      return {
        content: context.redactor.redact(`${name} failed: ${code ? `${code}: ` : ''}${(error as Error).message}`),
        isError: true,
      };
    }
  }
}
