# Build stage: compile the release binary with the committed lock file.
FROM rust:1-slim-trixie AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY assets ./assets
COPY migrations ./migrations
COPY benches ./benches
RUN cargo build --release --locked --bin croupier

# Runtime stage: a slim image running as a non-root user; SQLite data on a volume.
FROM debian:trixie-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --create-home croupier \
    && mkdir -p /app/data && chown croupier:croupier /app/data
COPY --from=build /src/target/release/croupier /usr/local/bin/croupier
USER croupier
WORKDIR /app
ENV DATABASE_URL=sqlite:///app/data/croupier.db
# Metrics and the health check on port 9100 inside the container (publish it only to your
# monitoring); the image has no curl, so the check is the binary's own `healthcheck`, which
# asks GET /healthz: 200 only while the gateway is connected and the database answers.
ENV METRICS_ADDR=0.0.0.0:9100
EXPOSE 9100
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["croupier", "healthcheck"]
VOLUME ["/app/data"]
ENTRYPOINT ["croupier"]
