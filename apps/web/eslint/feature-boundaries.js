// ESLint rule `solterm/feature-boundaries`: the web's feature graph as the architecture declares it.
//
// - apps/web/src/features/<f>/ is a feature. A file of one feature imports another feature only through
//   that feature's public face, features/<other>/index.ts, never one of its files.
// - Features are layered (`layers`, lowest first) and a feature may import only features of lower
//   layers, so no two features import each other (nor any longer cycle); a feature missing from
//   `layers` is reported.
// - lib/ is platform code: it never imports a feature.
// - The rest (app/ routes and providers, components/layout, main.tsx) may import features freely.
// The layering and the import visitors are shared with the server's rule (eslint/layered-boundaries.js).
import { layeredBoundaries, partsUnder } from '../../../eslint/layered-boundaries.js';

/** Where a file sits: a feature, lib/, or elsewhere in (or outside) the web's source. */
function placeOf(file, srcDir) {
  const parts = partsUnder(srcDir, file);
  if (!parts) return { kind: 'outside' };
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
    const { srcDir, file, checkLayers, importVisitors } = layeredBoundaries(context, {
      unknownMessageId: 'unknownFeature',
      nameKey: 'feature',
    });
    const from = placeOf(file, srcDir);
    if (from.kind === 'outside' || from.kind === 'other') return {};

    return importVisitors((node, source, target) => {
      const to = placeOf(target, srcDir);
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
      checkLayers(node, from.name, to.name);
    });
  },
};

export default { rules: { 'feature-boundaries': featureBoundaries } };
