-- First start of the compose PostgreSQL: one database per service (the migration one-shots would
-- create them too, but creating them here keeps the migrations free of CREATE DATABASE rights).
CREATE DATABASE auth;
CREATE DATABASE push;
