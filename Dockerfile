# chouette-bot: the bot in a container; its database lives on the /data volume.
# Build: docker build -t chouette-bot .   Run: docker compose up -d --build   (README: Deploying)
# The image includes GNU Backgammon's analysis: the worker in analysis/ and the gnubg package,
# both GPL-3.0-or-later (the bot, MIT, only starts the worker as a process of its own).
# Debian 12 by name: the one system library gnubg needs (below) is named as Debian 12 names it.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# gnubg's wheel bundles its libraries but GLib (libglib-2.0, libgobject-2.0), which the slim
# image lacks.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libglib2.0-0 \
 && rm -rf /var/lib/apt/lists/*

# What running needs, and nothing for the tests: the lock of pyproject.toml's dependencies
# (gnubg among them) and its `postgres` (asyncpg) extra, every package pinned with its hashes
# (`make lock` writes it), in a layer of their own that a change to the code keeps.
COPY requirements/image.txt /tmp/requirements.txt
RUN pip install --no-compile --require-hashes -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt \
 && python -c "import gnubg"

COPY assets ./assets
COPY rules ./rules
COPY bot ./bot
COPY cogs ./cogs
COPY locale ./locale
COPY analysis ./analysis

# A user of its own, who owns the data and backups folders (a new, empty named volume starts
# as a copy of the folder it is mounted on, owner included).
RUN groupadd --system --gid 10001 chouette \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin chouette \
 && mkdir /data /backups \
 && chown 10001:10001 /data /backups
USER 10001:10001

# CHOUETTE_CONTAINER: a missing token is told as an environment variable to pass, not a file.
# The club's pages listen on the container's every address (a container's loopback is its
# own): publish the port to the host's loopback, behind the host's web server (compose.yaml).
ENV CHOUETTE_DB=/data/chouette.sqlite3 \
    CHOUETTE_BACKUP_DIR=/backups \
    CHOUETTE_CONTAINER=docker \
    CHOUETTE_WEB_BIND=0.0.0.0:8080
VOLUME ["/data", "/backups"]
EXPOSE 8080

# Well while connected to Discord with the database answering: the bot touches a heartbeat
# file beside the database every 30 s, and `health` fails once it is 90 s old.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# SIGTERM (docker stop) closes the Discord session and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot", "run"]
