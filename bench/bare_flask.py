"""The reference of `bench.storage`: a bare Flask endpoint, served by the same gunicorn settings."""
from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/")
def hello():
    return jsonify({"hello": "world"})
