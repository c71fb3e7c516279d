# chouette-bot: the bot in a container; its database lives on the /data volume.
# Build: docker build -t chouette-bot .   Run: docker compose up -d   (see README: Deploying)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# What running needs, and nothing for the tests: the dependencies of pyproject.toml, in a
# layer of their own that a change to the code keeps.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
 && pip install --no-compile -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

COPY assets ./assets
COPY rules ./rules
COPY bot ./bot
COPY cogs ./cogs

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
