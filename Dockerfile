# chouette-bot: the bot in a container; its database lives on the /data volume.
# Build: docker build -t chouette-bot .   Run: docker compose up -d   (see README: Deploying)
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

# What running needs, and nothing for the tests: the lock of pyproject.toml's dependencies and
# its `analysis` extra (gnubg), every package pinned with its hashes (`make lock` writes it), in
# a layer of their own that a change to the code keeps.
COPY requirements/image.txt /tmp/requirements.txt
RUN pip install --no-compile --require-hashes -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt \
 && python -c "import gnubg"

COPY assets ./assets
COPY rules ./rules
COPY bot ./bot
COPY cogs ./cogs
COPY analysis ./analysis

# A user of its own, who owns the data folder (a new named volume starts as a copy of it).
RUN groupadd --system --gid 10001 chouette \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin chouette \
 && mkdir /data \
 && chown 10001:10001 /data
USER 10001:10001

ENV CHOUETTE_DB=/data/chouette.sqlite3
VOLUME ["/data"]

# SIGTERM (docker stop) closes the Discord session and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot", "run"]
