# rollkeeper in a container. The database belongs on a volume: see the README ("Docker").
FROM python:3.11-slim
RUN useradd --create-home --uid 1000 rollkeeper && mkdir /data && chown rollkeeper /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir .
USER rollkeeper
ENV DATABASE_PATH=/data/rollkeeper.sqlite3
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
