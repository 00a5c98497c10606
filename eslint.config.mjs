import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** `@/src/storage…`, `../../src/storage…`, `../storage…`: the storage layer, however it is reached. */
const STORAGE_MODULE = /^(?:@\/src\/|(?:\.{1,2}\/)+(?:src\/)?)storage(?:\/.*)?$/;
const STORAGE_ACCESS_MESSAGE =
  "Do not call storage from app/, components/ or src/api/: call a function of src/services (add one there if none fits), passing it the runtime's storage.";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // The per-request ingest path: an object spread given more properties gets a hidden class of its
    // own per object in Node 20's V8, allocated in the old generation (src/ingest/cors.ts).
    files: ["src/ingest/**/*.ts", "src/processing/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ObjectExpression > SpreadElement ~ Property",
          message:
            "A spread followed by more properties makes a new hidden class per object in Node 20's V8: use Object.assign onto {} (see corsHeadersWith in src/ingest/cors.ts).",
        },
      ],
    },
  },
  {
    // Boundaries (docs/api.md): pages, components and the API layer reach data only through
    // src/services, which own the rules (scopes, visibility) and the queries. They may hold the
    // runtime's storage handle to pass it to a service, but never import storage or call its repos.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "src/api/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: STORAGE_MODULE.source,
              message: "app/, components/ and src/api/ use src/services (and types from src/model), never src/storage.",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        ...[
          // runtime.storage.accounts…, getRuntime().storage.keys…
          "MemberExpression[object.type='MemberExpression'][object.property.name='storage']",
          // const { storage } = getRuntime(); storage.projects…
          "MemberExpression[object.type='Identifier'][object.name='storage']",
          // const { accounts } = runtime.storage;
          "VariableDeclarator[id.type='ObjectPattern'][init.type='MemberExpression'][init.property.name='storage']",
          // const { storage: { accounts } } = runtime;
          "Property[key.name='storage'][value.type='ObjectPattern']",
        ].map((selector) => ({ selector, message: STORAGE_ACCESS_MESSAGE })),
        {
          selector: `ImportExpression[source.value=${STORAGE_MODULE}]`,
          message: "app/, components/ and src/api/ use src/services (and types from src/model), never src/storage.",
        },
      ],
    },
  },
  { ignores: [".next/**", ".scratch/**", "node_modules/**", "data/**", "next-env.d.ts", "tests/fixtures/**", "bin/**"] },
];

export default config;
