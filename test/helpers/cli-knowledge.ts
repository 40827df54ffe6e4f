// Finds where code names an official CLI, with the TypeScript type checker: comparisons (=== !== == != and
// switch) whose operand has the CLI-name type, and reads of the per-CLI flags. A text search cannot do it:
// 'gemini' is both a provider id and a CLI name, and only the operand's type tells them apart.
import path from 'node:path';
import ts from 'typescript';

/** Flags that describe one CLI's quirks: only official-cli/ may read them. */
export const PER_CLI_FLAGS = new Set(['omissions', 'dropsMalformedEvents', 'retriesOnStderrOnly']);

export interface CliKnowledgeOptions {
  /** Files to judge (absolute paths, as the program names them). */
  judged: (file: string) => boolean;
  /** The file that declares the CLI-name type, and the type's name. */
  nameType: { file: string; name: string };
}

/** The string literals of the CLI-name type (e.g. gemini, codex, claude). */
function cliNames(
  program: ts.Program,
  checker: ts.TypeChecker,
  nameType: CliKnowledgeOptions['nameType'],
): Set<string> {
  const source = program.getSourceFile(nameType.file);
  if (!source) throw new Error(`${nameType.file} is not in the program`);
  const declaration = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && statement.name.text === nameType.name,
  );
  if (!declaration) throw new Error(`${nameType.file} declares no type ${nameType.name}`);
  const type = checker.getTypeAtLocation(declaration.name);
  const members = type.isUnion() ? type.types : [type];
  return new Set(
    members.filter((member) => member.isStringLiteral()).map((member) => (member as ts.StringLiteralType).value),
  );
}

/**
 * Whether an expression's type is the CLI-name type or a union of its names (undefined and null aside): at
 * least two of the names, or the type by its alias. A literal written in place ('gemini') is not a value of
 * that type, and a provider id ('gemini' | 'openai-chat' | ...) holds other names too.
 */
function hasCliNameType(
  checker: ts.TypeChecker,
  expression: ts.Expression,
  names: ReadonlySet<string>,
  aliasName: string,
): boolean {
  if (ts.isStringLiteralLike(expression)) return false;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(expression));
  if (type.aliasSymbol?.name === aliasName) return true;
  if (!type.isUnion()) return false;
  return (
    type.types.length >= 2 &&
    type.types.every((member) => member.isStringLiteral() && names.has((member as ts.StringLiteralType).value))
  );
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** What each judged file does that names a CLI: "file:line: what". */
export function cliKnowledge(program: ts.Program, options: CliKnowledgeOptions): string[] {
  const checker = program.getTypeChecker();
  const names = cliNames(program, checker, options.nameType);
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !options.judged(source.fileName)) continue;
    const where = (node: ts.Node) =>
      `${path.relative(process.cwd(), source.fileName).split(path.sep).join('/')}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const isCliName = (expression: ts.Expression) => hasCliNameType(checker, expression, names, options.nameType.name);
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
        if (isCliName(node.left) || isCliName(node.right))
          found.push(`${where(node)}: compares a CLI name (${node.getText(source)})`);
      } else if (ts.isSwitchStatement(node) && isCliName(node.expression)) {
        found.push(`${where(node)}: switches on a CLI name (${node.expression.getText(source)})`);
      } else if (ts.isPropertyAccessExpression(node) && PER_CLI_FLAGS.has(node.name.text)) {
        found.push(`${where(node)}: reads the per-CLI flag ${node.name.text}`);
      } else if (
        ts.isElementAccessExpression(node) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        PER_CLI_FLAGS.has(node.argumentExpression.text)
      ) {
        found.push(`${where(node)}: reads the per-CLI flag ${node.argumentExpression.text}`);
      } else if (ts.isBindingElement(node)) {
        const key = node.propertyName ?? node.name;
        if (ts.isIdentifier(key) && PER_CLI_FLAGS.has(key.text))
          found.push(`${where(node)}: reads the per-CLI flag ${key.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** A program over the given files with the repository's compiler options. */
export function programOf(files: readonly string[], root: string): ts.Program {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  return ts.createProgram({ rootNames: [...files], options: { ...parsed.options, noEmit: true } });
}

/** A program over in-memory files (name → text), for proving the detector on small sources. */
export function programFromTexts(texts: Readonly<Record<string, string>>): ts.Program {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, noLib: true };
  const host = ts.createCompilerHost(options);
  const files = new Map(Object.entries(texts).map(([name, text]) => [path.resolve(name), text]));
  host.getSourceFile = (fileName, version) => {
    const text = files.get(path.resolve(fileName));
    return text === undefined ? undefined : ts.createSourceFile(fileName, text, version, true);
  };
  host.fileExists = (fileName) => files.has(path.resolve(fileName));
  host.readFile = (fileName) => files.get(path.resolve(fileName));
  return ts.createProgram({ rootNames: [...files.keys()], options, host });
}
