# Quick start: `make up` (whole system, foreground) and `make test` (whole suite). See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help up test client user packages setup services bench validate-deploy rehearse

help:
	@echo "make up       install, build, migrate and run every service locally (Ctrl-C stops)"
	@echo "make test     lint, typecheck, unit and integration tests"
	@echo "make client NAME=x SCOPES=\"pushes:read pushes:write\"   print a new client's JSON credentials"
	@echo "make user EMAIL=someone@example.org   create a user; print its email and generated password as JSON"
	@echo "make packages       pack the SDK and the CLI into installable tarballs in packs/"
	@echo "make validate-deploy   static checks of docker-compose.yml, the Dockerfile and k8s/"
	@echo "make rehearse          2 auth, 2 push, 2 workers as processes behind round-robin proxies + smoke checks"

up:
	@bash scripts/up.sh

test:
	@bash scripts/test.sh

client:
	@bash scripts/client.sh "$(NAME)" "$(SCOPES)"

user:
	@bash scripts/user.sh "$(EMAIL)"

packages:
	@bash scripts/pack.sh

setup:
	@bash scripts/setup.sh

services:
	@bash scripts/ensure-services.sh

bench:
	@bash scripts/setup.sh && source scripts/toolchain.sh && bash scripts/ensure-services.sh && pnpm --silent bench

validate-deploy:
	@bash scripts/validate-deploy.sh

rehearse:
	@bash scripts/rehearse.sh
