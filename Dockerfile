# Build stage: compile the release binary with the committed lock file.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY assets ./assets
COPY migrations ./migrations
COPY benches ./benches
RUN cargo build --release --locked --bin croupier

# Runtime stage: a slim image running as a non-root user; SQLite data on a volume.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --create-home croupier \
    && mkdir -p /app/data && chown croupier:croupier /app/data
COPY --from=build /src/target/release/croupier /usr/local/bin/croupier
USER croupier
WORKDIR /app
ENV DATABASE_URL=sqlite:///app/data/croupier.db
VOLUME ["/app/data"]
ENTRYPOINT ["croupier"]
