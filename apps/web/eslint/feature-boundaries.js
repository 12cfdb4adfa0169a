// ESLint rule `solterm/feature-boundaries`: the web's feature graph as the architecture declares it.
//
// - apps/web/src/features/<f>/ is a feature. A file of one feature imports another feature only through
//   that feature's public face, features/<other>/index.ts, never one of its files.
// - Features are layered (`layers`, lowest first) and a feature may import only features of lower
//   layers, so no two features import each other (nor any longer cycle); a feature missing from
//   `layers` is reported.
// - lib/ is platform code: it never imports a feature.
// - The rest (app/ routes and providers, components/layout, main.tsx) may import features freely.
import path from 'node:path';

/** Where a file sits: a feature, lib/, or elsewhere in (or outside) the web's source. */
function placeOf(file, srcDir) {
  const relative = path.relative(srcDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return { kind: 'outside' };
  const parts = relative.split(path.sep);
  if (parts[0] === 'features' && parts.length >= 2) {
    return { kind: 'feature', name: parts[1], inner: parts.slice(2).join('/') };
  }
  if (parts[0] === 'lib') return { kind: 'lib' };
  return { kind: 'other' };
}

/** The feature's own folder (`features/market`) or its index file (`features/market/index`). */
const isPublicFace = (inner) => inner === '' || /^index(\.(ts|tsx|js))?$/.test(inner);

export const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Features import each other only through their index, along a declared acyclic layering',
    },
    schema: [
      {
        type: 'object',
        properties: {
          srcDir: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['srcDir', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      notPublic:
        "'{{target}}' is internal to the {{feature}} feature: import it through features/{{feature}}/index.ts",
      upward:
        'The {{from}} feature (layer {{fromLayer}}) may not import the {{to}} feature (layer {{toLayer}}): features import only lower layers, so no two features import each other',
      unknownFeature:
        'The {{feature}} feature has no layer: add it to the feature-boundaries layers in eslint.config.js',
      libImportsFeature: 'lib/ is shared code: it must not import the {{feature}} feature',
    },
  },
  create(context) {
    const options = context.options[0];
    const srcDir = path.resolve(context.cwd ?? process.cwd(), options.srcDir);
    const layerOf = new Map();
    options.layers.forEach((names, index) => names.forEach((name) => layerOf.set(name, index)));
    const file = path.resolve(context.filename);
    const from = placeOf(file, srcDir);
    if (from.kind === 'outside' || from.kind === 'other') return {};

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = placeOf(path.resolve(path.dirname(file), source), srcDir);
      if (to.kind !== 'feature') return;
      if (from.kind === 'lib') {
        context.report({ node, messageId: 'libImportsFeature', data: { feature: to.name } });
        return;
      }
      if (from.name === to.name) return;
      if (!isPublicFace(to.inner)) {
        context.report({ node, messageId: 'notPublic', data: { target: source, feature: to.name } });
        return;
      }
      for (const name of [from.name, to.name]) {
        if (!layerOf.has(name)) {
          context.report({ node, messageId: 'unknownFeature', data: { feature: name } });
          return;
        }
      }
      const fromLayer = layerOf.get(from.name);
      const toLayer = layerOf.get(to.name);
      if (toLayer >= fromLayer) {
        context.report({
          node,
          messageId: 'upward',
          data: { from: from.name, to: to.name, fromLayer, toLayer },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'feature-boundaries': featureBoundaries } };
