CREATE TABLE "login_throttles" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "login_throttles_last_failed_idx" ON "login_throttles" USING btree ("last_failed_at");