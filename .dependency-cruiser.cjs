/**
 * Import cycles fail `pnpm lint` (scripts/check-cycles.sh runs this over services/ packages/ bench/
 * deploy/). A cycle through `import type` is still a cycle of concepts, so type-only imports count
 * (`tsPreCompilationDeps`). The direction between layers is ESLint's job (eslint.config.mjs).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other, directly or through others (type-only imports count): move what both need into a third module, or pass it in.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage|\\.tools|\\.local)/' },
    moduleSystems: ['cjs', 'es6'],
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
    // cross-package imports resolve to the other package's dist/, which is excluded: each
    // package is checked on its own sources (workspace dependencies cannot form cycles: pnpm
    // installs them as a graph of package.json dependencies)
  },
};
