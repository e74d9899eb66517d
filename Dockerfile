# rollkeeper in a container. The database belongs on a volume: see the README ("Docker").
# The base image is pinned to a Python patch release and a Debian release; pin its digest too if you like
# (docker buildx imagetools inspect python:3.11.13-slim-bookworm).
FROM python:3.11.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN useradd --create-home --uid 1000 rollkeeper && mkdir /data && chown rollkeeper /data
WORKDIR /app

# Dependencies first, from pyproject.toml alone: this layer is rebuilt only when the dependencies change,
# not at every change of the code. The postgres extra (asyncpg) too, so that DATABASE_URL works in the image.
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# Then the code, without its dependencies (installed above).
COPY README.md ./
COPY rules ./rules
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps .

USER rollkeeper
ENV DATABASE_PATH=/data/rollkeeper.sqlite3
VOLUME ["/data"]
# Healthy when the database opens and the bot has migrated it (python -m bot healthcheck, exit 0 or 1).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]
CMD ["python", "-m", "bot"]
