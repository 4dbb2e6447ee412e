from marshmallow import Schema, fields


class AnalysisSchema(Schema):
    """Published per game by the contract (`contract.analysis_schema`)."""

    status = fields.String(required=True)
    job = fields.String(required=True)
    type = fields.String()
    better = fields.String()
    seats = fields.List(fields.Dict())
