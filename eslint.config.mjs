import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

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
  { ignores: [".next/**", ".scratch/**", "node_modules/**", "data/**", "next-env.d.ts", "tests/fixtures/**", "bin/**"] },
];

export default config;
