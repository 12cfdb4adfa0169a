// What the server's `solterm/module-boundaries` and the web's `solterm/feature-boundaries` rules
// share: a source tree cut into units (modules, features) stacked in declared layers, where a unit
// may import only units of lower layers, so the unit graph is acyclic by construction.
import path from 'node:path';

/**
 * The path of `file` under `srcDir`, split into its folders and name; null when it lies outside.
 *
 * @example
 * partsUnder('/app/src', '/app/src/modules/auth/auth.service.ts'); // ['modules', 'auth', 'auth.service.ts']
 */
export function partsUnder(srcDir, file) {
  const relative = path.relative(srcDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep);
}

/**
 * The common half of a layered boundaries rule, for the rule context of one linted file whose options
 * carry `srcDir` and `layers` (lowest first). `unknownMessageId`, with `{{<nameKey>}}` in its text, is
 * reported for a unit missing from the layers; the calling rule must also define an `upward` message
 * (`{{from}}`, `{{fromLayer}}`, `{{to}}`, `{{toLayer}}`).
 *
 * @returns `srcDir` and `file` resolved; `checkLayers(node, from, to)`, which reports an unlayered unit
 *   or an import of a unit of the same or a higher layer; and `importVisitors(check)`, the rule's
 *   visitors, calling `check(node, source, target)` for every relative static import, re-export and
 *   dynamic import, with `target` the absolute path the source points to.
 */
export function layeredBoundaries(context, { unknownMessageId, nameKey }) {
  const options = context.options[0];
  const srcDir = path.resolve(context.cwd ?? process.cwd(), options.srcDir);
  const file = path.resolve(context.filename);
  const layerOf = new Map();
  options.layers.forEach((names, index) => names.forEach((name) => layerOf.set(name, index)));

  function checkLayers(node, from, to) {
    for (const name of [from, to]) {
      if (!layerOf.has(name)) {
        context.report({ node, messageId: unknownMessageId, data: { [nameKey]: name } });
        return;
      }
    }
    const fromLayer = layerOf.get(from);
    const toLayer = layerOf.get(to);
    if (toLayer >= fromLayer) {
      context.report({ node, messageId: 'upward', data: { from, to, fromLayer, toLayer } });
    }
  }

  function importVisitors(check) {
    const visit = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      check(node, source, path.resolve(path.dirname(file), source));
    };
    return {
      ImportDeclaration: (node) => visit(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && visit(node, node.source.value),
      ExportAllDeclaration: (node) => visit(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && visit(node, node.source.value),
    };
  }

  return { options, srcDir, file, checkLayers, importVisitors };
}
