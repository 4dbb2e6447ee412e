FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY api ./api
COPY rules ./rules
COPY worker ./worker
COPY pwa ./pwa
COPY seeds ./seeds
RUN pip install --no-cache-dir -e .
# Inside the container every interface; docker-compose.yml decides what the host publishes.
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "api.http:create_app()"]
