"""Request and response shapes. Responses are documented here so the OpenAPI
schema (and generated clients) know them; the services build the dicts."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable error code")
    detail = serializers.CharField(help_text="a human sentence")
    fields = serializers.DictField(required=False, help_text="per-field messages (400)")
    current_version = serializers.IntegerField(required=False, help_text="with version_conflict (409)")


# -- accounts -------------------------------------------------------------------------------
class RegisterSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{3,40}$", max_length=40,
                                      help_text="3-40 letters, digits and @.+-_")
    password = serializers.CharField(write_only=True, max_length=200)
    email = serializers.EmailField(required=False, allow_blank=True)


class RegisteredSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    email_notifications = serializers.BooleanField(required=False)
    webhook_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
    webhook_secret = serializers.CharField(required=False, allow_blank=True, write_only=True, max_length=200,
                                           help_text="write-only; used to sign webhook bodies")
    has_webhook_secret = serializers.BooleanField(read_only=True)
    vacation_until = serializers.DateTimeField(required=False, allow_null=True)
    vacation_days_left = serializers.FloatField(read_only=True)


# -- rulesets and games ---------------------------------------------------------------------
class RulesetSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    rules_version = serializers.IntegerField()
    factions = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField(help_text="JSON Schema of the options")


class TimeControlSerializer(serializers.Serializer):
    seconds_per_decision = serializers.IntegerField(min_value=5, max_value=2592000, required=False,
                                                    allow_null=True)
    reminder_before_seconds = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    excused_misses = serializers.IntegerField(min_value=0, max_value=1000, required=False)


class CreateGameSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    players = serializers.IntegerField()
    options = serializers.DictField(required=False)
    time_control = TimeControlSerializer(required=False, allow_null=True)
    name = serializers.CharField(required=False, allow_blank=True, max_length=120)
    faction = serializers.CharField(required=False, allow_null=True, max_length=40,
                                    help_text="the creator's faction, or 'random'")


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    faction = serializers.CharField(allow_null=True)
    user = UserRefSerializer(allow_null=True)
    is_bot = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True)
    zombie = serializers.BooleanField()
    misses = serializers.IntegerField()


class PendingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)


class OutcomeSerializer(serializers.Serializer):
    winners = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.DictField(child=serializers.FloatField())
    reason = serializers.CharField()


class GameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    rules_version = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    time_control = TimeControlSerializer(allow_null=True)
    status = serializers.ChoiceField(choices=["open", "running", "finished", "aborted"])
    paused = serializers.BooleanField()
    creator = serializers.CharField()
    version = serializers.IntegerField()
    chain_head = serializers.CharField(allow_null=True)
    seats = SeatSerializer(many=True)
    pending = PendingSerializer(many=True)
    outcome = OutcomeSerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameListSerializer(serializers.Serializer):
    results = GameSerializer(many=True)
    next = serializers.CharField(allow_null=True)
    count = serializers.IntegerField()


class JoinSerializer(serializers.Serializer):
    faction = serializers.CharField(required=False, allow_null=True, max_length=40)
    bot = serializers.CharField(required=False, allow_null=True, max_length=20,
                                help_text="add a bot seat instead of joining (creator only): 'random'")


class ViewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    state = serializers.JSONField(allow_null=True, help_text="the ruleset's redacted view")


class TemplateSerializer(serializers.Serializer):
    type = serializers.CharField()
    schema = serializers.DictField()
    description = serializers.CharField()


class LegalSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    commands = serializers.ListField(child=serializers.DictField())
    templates = TemplateSerializer(many=True)
    samples = serializers.ListField(child=serializers.DictField())


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, not a numeric string, float or boolean."""

    def to_internal_value(self, data):
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


# The one check of a command request body (services trust it): no unknown fields,
# `command` an object with a string `type`, `expected_version` a JSON integer or absent.
# (A comment, not a docstring: drf-spectacular would publish a docstring in schema.yml.)
class CommandRequestSerializer(serializers.Serializer):
    command = serializers.DictField(help_text="{type, ...} exactly as legal-commands lists it")
    expected_version = StrictIntegerField(required=False, allow_null=True)

    def validate_command(self, value):
        if not isinstance(value.get("type"), str):
            raise serializers.ValidationError("an object with a string `type`")
        return value

    def validate(self, attrs):
        unknown = set(self.initial_data) - set(self.fields) if isinstance(self.initial_data, dict) else set()
        if unknown:
            raise serializers.ValidationError({"non_field_errors": [f"unknown fields: {sorted(unknown)}"]})
        return attrs


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    version = serializers.IntegerField(required=False)
    actor = serializers.JSONField(required=False, allow_null=True)
    recorded_at = serializers.DateTimeField(required=False)
    visibility = serializers.ChoiceField(choices=["public", "private"], required=False)
    visible_to = serializers.ListField(child=serializers.IntegerField(), required=False, allow_null=True)
    payload = serializers.JSONField(required=False)
    cause = serializers.JSONField(required=False)
    redacted = serializers.BooleanField(required=False)
    prev_hash = serializers.CharField()
    hash = serializers.CharField()


class CommandResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)


class EventPageSerializer(serializers.Serializer):
    results = EventSerializer(many=True)
    next = serializers.CharField(allow_null=True)


class HealthSerializer(serializers.Serializer):
    status = serializers.CharField()
    database = serializers.CharField()
    broker = serializers.CharField()
