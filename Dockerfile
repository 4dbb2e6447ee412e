FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY api ./api
COPY rules ./rules
COPY worker ./worker
COPY pwa ./pwa
COPY seeds ./seeds
RUN pip install --no-cache-dir -e .
ENV PORT=8000
EXPOSE 8000
CMD gunicorn --bind 0.0.0.0:${PORT} --worker-class gevent --workers 2 --worker-connections 2000 "api:create_app()"
