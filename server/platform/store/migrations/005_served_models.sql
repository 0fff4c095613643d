-- The models this service has served, by the name its votes carry (model_type): each instance
-- records its lineup as it starts. The statistics count only votes for these, so a reader cannot
-- put a name of their own on every reader's Insights page by saving a vote for it.
CREATE TABLE served_models (
  model_type      text PRIMARY KEY,
  first_served_at timestamptz NOT NULL DEFAULT now()
);
