CREATE TABLE "bot_optimization_trials" (
	"optimization_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"parameters" jsonb NOT NULL,
	"folds" jsonb NOT NULL,
	"in_sample_objective" double precision,
	"out_of_sample_objective" double precision,
	"error" text,
	CONSTRAINT "bot_optimization_trials_optimization_id_seq_pk" PRIMARY KEY("optimization_id","seq")
);
--> statement-breakpoint
CREATE TABLE "bot_optimizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"state" text NOT NULL,
	"request" jsonb NOT NULL,
	"trials_total" integer NOT NULL,
	"trials_done" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bot_optimization_trials" ADD CONSTRAINT "bot_optimization_trials_optimization_id_bot_optimizations_id_fk" FOREIGN KEY ("optimization_id") REFERENCES "public"."bot_optimizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_optimizations" ADD CONSTRAINT "bot_optimizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_optimizations" ADD CONSTRAINT "bot_optimizations_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_optimizations_user_idx" ON "bot_optimizations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_optimizations_one_active_per_user" ON "bot_optimizations" USING btree ("user_id") WHERE "bot_optimizations"."state" in ('queued', 'running');