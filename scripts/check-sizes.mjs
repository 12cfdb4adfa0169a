// Keeps rooms small enough to find your way in: no source file over 450 lines and no function or
// component over 100 lines of its own (lines inside functions nested in it count for those, not for
// it). Declarative files (zod schemas, drizzle tables, migrations) are exempt: their length is data.
// Tests, fixtures and benches are exempt too: a long list of cases is easier to read than a split one.
//
//   node scripts/check-sizes.mjs          → prints violations, exits 1 if any
//   node scripts/check-sizes.mjs --report → also prints the ten largest files and functions
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export const MAX_FILE_LINES = 450;
export const MAX_FUNCTION_LINES = 100;

const SOURCE = /^(apps|packages)\/[^/]+\/src\/.*\.(ts|tsx|mjs)$|^scripts\/.*\.(ts|mjs)$/;
const EXEMPT = [
  /\.(test|spec)\.tsx?$/,
  /\/test\//,
  /\/fixtures?\//,
  /\.schemas\.ts$/,
  /\.tables\.ts$/,
  /\/migrations\//,
  /\.d\.ts$/,
];

export function sourceFiles(root = '.') {
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  return tracked.filter((file) => SOURCE.test(file) && !EXEMPT.some((rule) => rule.test(file)));
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

function functionName(node, sourceFile) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sourceFile);
  if (parent && ts.isCallExpression(parent)) {
    return `(callback of ${parent.expression.getText(sourceFile).slice(0, 40)})`;
  }
  return '(anonymous)';
}

/** Every function in the file with the lines it spans minus the lines its nested functions span. */
export function measureFunctions(fileName, text) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position) => sourceFile.getLineAndCharacterOfPosition(position).line;
  const spanOf = (node) => lineOf(node.getEnd()) - lineOf(node.getStart(sourceFile)) + 1;
  const results = [];
  const visit = (node, owner) => {
    if (isFunctionLike(node)) {
      const entry = {
        name: functionName(node, sourceFile),
        line: lineOf(node.getStart(sourceFile)) + 1,
        own: spanOf(node),
      };
      if (owner) owner.own -= spanOf(node);
      results.push(entry);
      ts.forEachChild(node, (child) => visit(child, entry));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  visit(sourceFile, undefined);
  return results;
}

export function checkSizes(root = '.') {
  const files = [];
  const functions = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(`${root}/${file}`, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    files.push({ file, lines });
    for (const fn of measureFunctions(file, text)) functions.push({ file, ...fn });
  }
  return {
    files,
    functions,
    bigFiles: files.filter((f) => f.lines > MAX_FILE_LINES),
    bigFunctions: functions.filter((f) => f.own > MAX_FUNCTION_LINES),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, functions, bigFiles, bigFunctions } = checkSizes();
  if (process.argv.includes('--report')) {
    console.log('largest files:');
    for (const f of [...files].sort((a, b) => b.lines - a.lines).slice(0, 10))
      console.log(`  ${f.lines}  ${f.file}`);
    console.log('largest functions (own lines):');
    for (const f of [...functions].sort((a, b) => b.own - a.own).slice(0, 10)) {
      console.log(`  ${f.own}  ${f.file}:${f.line} ${f.name}`);
    }
  }
  for (const f of bigFiles) console.log(`file over ${MAX_FILE_LINES} lines: ${f.file} (${f.lines})`);
  for (const f of bigFunctions) {
    console.log(
      `function over ${MAX_FUNCTION_LINES} lines of its own: ${f.file}:${f.line} ${f.name} (${f.own})`,
    );
  }
  console.log(
    `sizes: ${files.length} files, ${functions.length} functions; ${bigFiles.length} files and ${bigFunctions.length} functions over the limits`,
  );
  process.exit(bigFiles.length + bigFunctions.length > 0 ? 1 : 0);
}
