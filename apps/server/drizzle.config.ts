import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the module tables (`npm run db:generate`) and applied at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/server/src/db/schema.ts',
  out: './apps/server/drizzle',
});
