-- Trigram matching for the shipment listing's substring search (GIN index on search_text).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
