CREATE TABLE "courier_health" (
	"connector" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error_at" timestamp with time zone,
	"last_error" text,
	"token_expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
