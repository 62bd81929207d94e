"""Request and response shapes. Responses are documented here so the OpenAPI
schema (and generated clients) know them; the services build the dicts."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.rules.i18n import LANGUAGES
from games.services.errors import ErrorCode


class StrictSerializer(serializers.Serializer[dict[str, Any]]):
    # A request body read as written: unknown keys are refused (a typo must not be
    # silently dropped; the schema says additionalProperties: false), and JSON
    # types are not coerced (DRF would turn 1.5 into the string "1.5", "2" into 2
    # and "yes" into True). Read-only fields sent back (a PATCH of the object GET
    # returned) are ignored, as DRF does. (A comment, not a docstring: docstrings
    # become descriptions in schema.yml.)

    _TYPES = (  # (field class, accepted JSON types, name) — subclasses first
        (serializers.BooleanField, (bool,), "a boolean"),
        (serializers.CharField, (str,), "a string"),
        (serializers.IntegerField, (int,), "an integer"),
        (serializers.FloatField, (int, float), "a number"),
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            errors = {k: ["unknown field"] for k in data if k not in self.fields}
            for name, field in self.fields.items():
                if name in data and not field.read_only and not _json_type_ok(field, data[name]):
                    errors[name] = [f"must be {_wanted(field)}"]
            if errors:
                raise serializers.ValidationError(errors)
        checked: dict[str, Any] = super().to_internal_value(data)
        return checked


def _json_type_ok(field: serializers.Field[Any, Any, Any, Any], value: object) -> bool:
    if value is None:
        return True  # allow_null is the field's own check
    for cls, types, _ in StrictSerializer._TYPES:
        if isinstance(field, cls):
            return isinstance(value, types) and (bool in types or not isinstance(value, bool))
    return True


def _wanted(field: serializers.Field[Any, Any, Any, Any]) -> str:
    return next(name for cls, _, name in StrictSerializer._TYPES if isinstance(field, cls))


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.ChoiceField(
        choices=[(c.value, c.name) for c in ErrorCode],
        help_text="machine-readable error code (docs/api.md says what each means)",
    )
    detail = serializers.CharField(help_text="a human sentence")
    # the API's key; DRF's metaclass moves declared fields off the class, so the
    # serializer's own `fields` property is not shadowed at run time
    fields = serializers.DictField(required=False, help_text="per-field messages (400)")  # type: ignore[assignment]
    current_version = serializers.IntegerField(required=False, help_text="with version_conflict (409)")


# -- accounts -------------------------------------------------------------------------------
class RegisterSerializer(StrictSerializer):
    # The rules are accounts/usernames.py's (the web sign-up form's too), applied in the view.
    username = serializers.CharField(
        max_length=150,
        help_text="3-40 letters, digits and @.+-_ after NFKC normalisation; "
        "not taken, nor looking like a taken name (409 username_taken)",
    )
    password = serializers.CharField(write_only=True, max_length=200)
    email = serializers.EmailField(required=False, allow_blank=True)
    client_name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="a name for the token's client (shown in /accounts/me tokens)",
    )


class RegisteredSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class CredentialsSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200)
    client_name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="a name for the token's client (shown in /accounts/me tokens)",
    )


class TokenInfoSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="names the token for DELETE /accounts/me/tokens/{id}")
    client_name = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="to the minute; null: not used yet")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="slides forward with every use")
    current = serializers.BooleanField(help_text="the token this request was made with")


class PasswordChangeSerializer(serializers.Serializer[dict[str, Any]]):
    current_password = serializers.CharField(max_length=200)
    new_password = serializers.CharField(max_length=200)


class RevokedSerializer(serializers.Serializer[dict[str, Any]]):
    revoked = serializers.IntegerField(help_text="how many tokens were revoked")


class TokenSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField()


class MeSerializer(StrictSerializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)
    email = serializers.EmailField(required=False, allow_blank=True)
    email_notifications = serializers.BooleanField(required=False)
    webhook_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
    webhook_secret = serializers.CharField(
        required=False,
        allow_blank=True,
        write_only=True,
        max_length=200,
        help_text="write-only; used to sign webhook bodies",
    )
    has_webhook_secret = serializers.BooleanField(read_only=True)
    vacation_until = serializers.DateTimeField(required=False, allow_null=True)
    vacation_days_left = serializers.FloatField(read_only=True)
    language = serializers.ChoiceField(
        choices=["", *LANGUAGES],
        required=False,
        allow_blank=True,
        help_text="the language the server speaks to you (catalogue, summaries, error details, emails); "
        "empty: your request's Accept-Language",
    )
    is_bot = serializers.BooleanField(
        required=False, help_text="a program plays for this account (seat lists show it as user.is_bot)"
    )
    tokens = TokenInfoSerializer(
        many=True, read_only=True, help_text="your live tokens (sessions), newest first; never the secret"
    )


# -- rulesets and games ---------------------------------------------------------------------
class PlayerCountSerializer(serializers.Serializer[dict[str, Any]]):
    players = serializers.IntegerField()
    factions = serializers.ListField(
        child=serializers.CharField(), help_text="the factions a seat may choose"
    )
    options = serializers.DictField(help_text="JSON Schema of the options for this count")


class RulesetSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    rules_version = serializers.IntegerField()
    factions = serializers.ListField(
        child=serializers.CharField(),
        help_text="every faction of any player count; per_players says which may be chosen for a given count",
    )
    options = serializers.DictField(help_text="JSON Schema of the options")
    player_counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="the player counts a game may be created with"
    )
    per_players = PlayerCountSerializer(many=True)
    bots = serializers.ListField(
        child=serializers.CharField(),
        help_text='bots a seat may be given (POST /games/{id}/seats {"bot": name}): random, heuristic, mcts',
    )


class TimeControlSerializer(StrictSerializer):
    seconds_per_decision = serializers.IntegerField(
        min_value=5, max_value=2592000, required=False, allow_null=True
    )
    reminder_before_seconds = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    excused_misses = serializers.IntegerField(min_value=0, max_value=1000, required=False)


class CreateGameSerializer(StrictSerializer):
    ruleset = serializers.CharField(max_length=40)
    players = serializers.IntegerField()
    options = serializers.DictField(required=False)
    time_control = TimeControlSerializer(required=False, allow_null=True)
    name = serializers.CharField(required=False, allow_blank=True, max_length=120)
    faction = serializers.CharField(
        required=False, allow_null=True, max_length=40, help_text="the creator's faction, or 'random'"
    )
    private = serializers.BooleanField(
        required=False,
        default=False,
        help_text="unlisted; joined with the invite code; readable by seated players only",
    )


class UserRefSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="a bot account: a program plays it through the API")


class SeatSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    faction = serializers.CharField(allow_null=True)
    user = UserRefSerializer(allow_null=True)
    is_bot = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True)
    zombie = serializers.BooleanField()
    misses = serializers.IntegerField()
    entropy_given = serializers.BooleanField(
        help_text="the seat's player contributed entropy to the game's randomness (docs/audit.md)"
    )


class PendingSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField(help_text="the seat that must act")
    faction = serializers.CharField(allow_null=True)
    user = serializers.CharField(allow_null=True, help_text="the seat's player; null for a bot seat")
    is_bot = serializers.BooleanField(help_text="a bot acts for this seat (bot seat, or a zombie seat)")
    kind = serializers.CharField(help_text="the ruleset's name of the decision")
    deadline = serializers.DateTimeField(allow_null=True)


class OutcomeSerializer(serializers.Serializer[dict[str, Any]]):
    winners = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.DictField(child=serializers.FloatField())
    reason = serializers.CharField()


class CheckpointSerializer(serializers.Serializer[dict[str, Any]]):
    """The server's signed word that the game's chain had `head` at `version` (docs/audit.md)."""

    game = serializers.UUIDField()
    version = serializers.IntegerField()
    head = serializers.CharField(help_text="the hash of the game's last event at `version`")
    issued_at = serializers.CharField(help_text="RFC 3339 UTC: when `version` was committed")
    kid = serializers.CharField(help_text="the signing key's id in GET /api/v1/keys")
    signature = serializers.CharField(
        help_text='base64url Ed25519 signature of the UTF-8 bytes "sengoku-checkpoint/1\\n" + game + '
        '"\\n" + version + "\\n" + head + "\\n" + issued_at + "\\n"'
    )


class GameSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    rules_version = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    time_control = TimeControlSerializer(allow_null=True)
    status = serializers.ChoiceField(choices=["open", "running", "finished", "aborted"])
    paused = serializers.BooleanField()
    private = serializers.BooleanField()
    invite_code = serializers.CharField(allow_null=True, help_text="private games, for their creator only")
    creator = serializers.CharField()
    version = serializers.IntegerField()
    chain_head = serializers.CharField(allow_null=True)
    checkpoint = CheckpointSerializer(allow_null=True, help_text="signed; null before the first event")
    seed_commitment = serializers.CharField(
        help_text="sha256 of the server's secret seed, fixed when the game was created, before any "
        "seat's entropy (docs/audit.md, Seat entropy)"
    )
    seats = SeatSerializer(many=True)
    pending = PendingSerializer(many=True)
    outcome = OutcomeSerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameListSerializer(serializers.Serializer[dict[str, Any]]):
    results = GameSerializer(many=True)
    next = serializers.CharField(allow_null=True)
    count = serializers.IntegerField()


class JoinSerializer(StrictSerializer):
    faction = serializers.CharField(required=False, allow_null=True, max_length=40)
    # checked by the service (400 invalid_entropy), so a wrong length gets its own code
    entropy = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=200,
        help_text="64 hex characters (32 random bytes) mixed into the game's randomness at start",
    )
    invite_code = serializers.CharField(
        required=False, allow_null=True, max_length=64, help_text="required to join a private game"
    )
    bot = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=20,
        help_text="add a bot seat instead of joining (creator only): 'random', 'heuristic' or 'mcts'",
    )


class EntropySerializer(StrictSerializer):
    entropy = serializers.CharField(
        max_length=200, help_text="64 hex characters (32 random bytes) from the player's own device"
    )


class EntropyAnswerSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    entropy = serializers.CharField(help_text="the contribution as stored (lowercase hex)")
    seed_commitment = serializers.CharField(
        help_text="the server's seed commitment, fixed before this contribution: core.GameStarted repeats it"
    )


class InviteSerializer(serializers.Serializer[dict[str, Any]]):
    invite_code = serializers.CharField()


class ViewSerializer(serializers.Serializer[dict[str, Any]]):
    ruleset = serializers.CharField(help_text="the game's ruleset: says which typed view `state` is")
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    state = serializers.JSONField(
        allow_null=True,
        help_text="your view (your seat's; the public one for a spectator); null before the start",
    )
    seats = serializers.DictField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="once the game is over: every seat's view by seat index; null before",
    )
    checkpoint = CheckpointSerializer(
        allow_null=True, required=False, help_text="signed, at `version`; null before the start"
    )


class ReplayPatchSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField()
    patch = serializers.ListField(
        child=serializers.DictField(),
        help_text="RFC 6902 operations turning the View at version-1 into the View at version",
    )


class ReplayRangeSerializer(serializers.Serializer[dict[str, Any]]):
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()
    view = ViewSerializer(help_text="the View at `from`, exactly as /replay?version=from gives it")
    patches = ReplayPatchSerializer(many=True)
    next = serializers.CharField(
        allow_null=True, help_text="the following page (from = this page's to), or null"
    )


# "from" is a Python keyword: the field is declared as from_ and published as "from".
ReplayRangeSerializer._declared_fields["from"] = ReplayRangeSerializer._declared_fields.pop("from_")


class TemplateSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.CharField()
    schema = serializers.DictField()
    description = serializers.CharField()


class LegalCommandsSerializer(serializers.Serializer[dict[str, Any]]):
    ruleset = serializers.CharField(help_text="the game's ruleset: says which typed commands these are")
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    pending = serializers.BooleanField(
        help_text="a decision of yours is pending: commands or samples hold at least one legal command"
    )
    deadline = serializers.DateTimeField(allow_null=True)
    commands = serializers.ListField(child=serializers.DictField())
    templates = TemplateSerializer(many=True)
    samples = serializers.ListField(child=serializers.DictField())


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, not a numeric string, float or boolean."""

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


# The one check of a command request body (services trust it): no unknown fields,
# `command` an object with a string `type`, `expected_version` a JSON integer or absent.
# (A comment, not a docstring: drf-spectacular would publish a docstring in schema.yml.)
class SubmitCommandSerializer(serializers.Serializer[dict[str, Any]]):
    command = serializers.DictField(help_text="{type, ...} exactly as legal-commands lists it")
    expected_version = StrictIntegerField(required=False, allow_null=True)

    def validate_command(self, value: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(value.get("type"), str):
            raise serializers.ValidationError("an object with a string `type`")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = set(self.initial_data) - set(self.fields) if isinstance(self.initial_data, dict) else set()
        if unknown:
            raise serializers.ValidationError({"non_field_errors": [f"unknown fields: {sorted(unknown)}"]})
        return attrs


class EventSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    version = serializers.IntegerField(required=False)
    actor = serializers.JSONField(required=False, allow_null=True)
    recorded_at = serializers.DateTimeField(required=False)
    visibility = serializers.ChoiceField(choices=["public", "private"], required=False)
    visible_to = serializers.ListField(child=serializers.IntegerField(), required=False, allow_null=True)
    payload = serializers.JSONField(required=False)
    cause = serializers.JSONField(required=False)
    redacted = serializers.BooleanField(
        help_text="true: another seat's private event; only seq, type and the chain links are shown"
    )
    summary = serializers.CharField(
        required=False,
        help_text="on the first event of each batch (the one with `cause`): a one-line summary of the "
        "batch in your language, of the events you may see (feed and export)",
    )
    prev_hash = serializers.CharField()
    hash = serializers.CharField()
    checkpoint = CheckpointSerializer(
        required=False, help_text="on the last event of each commit: the signed checkpoint at its seq"
    )


class CommandResultSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    checkpoint = CheckpointSerializer(help_text="signed, at the command's last event: keep it (a receipt)")


class EventPageSerializer(serializers.Serializer[dict[str, Any]]):
    results = EventSerializer(many=True)
    next = serializers.CharField(allow_null=True)


class HealthSerializer(serializers.Serializer[dict[str, Any]]):
    status = serializers.CharField()
    database = serializers.CharField(required=False)
    broker = serializers.CharField(required=False)
    worker = serializers.CharField(required=False, help_text="ok, down (last heartbeat Ns ago) or never seen")
    scheduler = serializers.CharField(required=False, help_text="Celery beat: same values as worker")
    anchoring = serializers.CharField(
        required=False,
        help_text="whether checkpoints are anchored with an RFC 3161 timestamp (off without TSA_URL)",
    )
