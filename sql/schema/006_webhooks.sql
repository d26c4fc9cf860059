-- Schema version 6: webhooks (docs/WEBHOOKS.md). Times are Unix milliseconds (BIGINT).
--
-- webhook_subscriptions: a team's receivers; the signing secret is stored as given to the
-- receiver (it signs every delivery). webhook_sent: which signal each subscription was sent, and
-- under which event id (one id per signal and subscription, ever). webhook_outbox: one row per
-- event and subscription, the body as sent byte for byte, its state (pending, delivered, failed),
-- its attempts, when the next one is due and the lease of the attempt in flight.
-- webhook_deliveries: the log of attempts. The outbox and the log are pruned by retention.
CREATE TABLE IF NOT EXISTS webhook_subscriptions (
  id UUID NOT NULL,
  team_id UUID NOT NULL,
  url VARCHAR NOT NULL,
  events VARCHAR[] NOT NULL,
  domain_ids UUID[],
  secret VARCHAR NOT NULL,
  created_at BIGINT NOT NULL,
  disabled_at BIGINT,
  disabled_reason VARCHAR
);

CREATE TABLE IF NOT EXISTS webhook_sent (
  subscription_id UUID NOT NULL,
  signal_id VARCHAR NOT NULL,
  event_id UUID NOT NULL,
  sent_at BIGINT NOT NULL,
  PRIMARY KEY (subscription_id, signal_id)
);

CREATE SEQUENCE IF NOT EXISTS webhook_outbox_seq;

CREATE TABLE IF NOT EXISTS webhook_outbox (
  seq BIGINT NOT NULL DEFAULT nextval('webhook_outbox_seq'),
  event_id UUID NOT NULL,
  subscription_id UUID NOT NULL,
  domain_id UUID,
  type VARCHAR NOT NULL,
  body VARCHAR NOT NULL,
  created_at BIGINT NOT NULL,
  state VARCHAR NOT NULL,
  attempts INTEGER NOT NULL,
  first_attempt_at BIGINT,
  next_attempt_at BIGINT NOT NULL,
  lease_until BIGINT NOT NULL,
  finished_at BIGINT
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  subscription_id UUID NOT NULL,
  event_id UUID NOT NULL,
  attempt INTEGER NOT NULL,
  status_code INTEGER,
  error VARCHAR,
  outcome VARCHAR NOT NULL,
  attempted_at BIGINT NOT NULL
);
