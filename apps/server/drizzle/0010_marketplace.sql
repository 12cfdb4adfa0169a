CREATE TABLE "bot_copies" (
	"origin_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bot_copies_origin_id_user_id_pk" PRIMARY KEY("origin_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "copied_from" uuid;--> statement-breakpoint
ALTER TABLE "bot_copies" ADD CONSTRAINT "bot_copies_origin_id_bots_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_copies" ADD CONSTRAINT "bot_copies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_copied_from_bots_id_fk" FOREIGN KEY ("copied_from") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bots_public_idx" ON "bots" USING btree ("is_public","created_at");