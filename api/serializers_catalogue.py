"""The catalogue's shape in schema.yml (issue 14.1). Every ruleset fills the same
core fields; ruleset-specific extras (Shogun's court, Imjin's wheel and die, ...)
are further keys, listed here as free-form objects."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class AreaSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField(help_text="the id commands, events and views use")
    name = serializers.CharField(help_text="localized")
    kind = serializers.CharField(help_text="land, sea, shrine")
    region = serializers.CharField(allow_null=True, required=False)
    adjacent = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="every neighbour"
    )
    values = serializers.DictField(
        required=False, help_text="printed on the board: reward, tax, rice, supply..."
    )
    shape = serializers.CharField(
        required=False, help_text="SVG path data in map.view_box, when the board geometry is present"
    )
    label_at = serializers.ListField(
        child=serializers.FloatField(), required=False, help_text="[x, y] where the name is drawn"
    )


class RouteSerializer(serializers.Serializer[dict[str, Any]]):
    between = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    kind = serializers.CharField(help_text="shipping_route, sea, land_sea, sea_sea, land_border...")
    name = serializers.CharField(help_text="localized name of the kind")


class MapSerializer(serializers.Serializer[dict[str, Any]]):
    view_box = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="[x, y, width, height] of the shapes' coordinates; null without board geometry",
    )
    provinces = AreaSerializer(many=True, help_text="every province, land or sea area")
    sea_routes = RouteSerializer(many=True, help_text="adjacencies over water, with their kind")


class AbilitySerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    text = serializers.CharField()


class FactionSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    name = serializers.CharField()
    colour = serializers.CharField(help_text="#rrggbb from a colour-blind-safe palette")
    letter = serializers.CharField(help_text="a second cue beside the colour")
    ability = AbilitySerializer(allow_null=True, required=False)


class FigureSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    name = serializers.CharField()
    strength = serializers.IntegerField(allow_null=True, help_text="null: set by its card or not a fighter")


class CardSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    kind = serializers.CharField(
        help_text="season_card, kami, mandate, action, event, special, favour, general..."
    )
    name = serializers.CharField()
    text = serializers.CharField(required=False, help_text="rules text, localized")
    cost = serializers.IntegerField(required=False, allow_null=True)
    placeholder = serializers.BooleanField(
        required=False,
        help_text="true where the data has no source (a design value, see the ruleset's README)",
    )


class CommandFieldSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(help_text="the parameter's key in the command")
    # the API's key; DRF's metaclass moves declared fields off the class (Field.label is not shadowed)
    label = serializers.CharField()  # type: ignore[assignment]
    of = serializers.CharField(
        help_text="what its value names: province, provinces, seat, card, figure, kami, mandate, "
        "general, unit, favour, special, plan, choice (a key of `choices`), boolean, number"
    )


class CommandLabelSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.CharField(help_text="the command's `type`")
    # the API's key; DRF's metaclass moves declared fields off the class (Field.label is not shadowed)
    label = serializers.CharField()  # type: ignore[assignment]
    help = serializers.CharField()
    fields = CommandFieldSerializer(  # type: ignore[assignment]
        many=True, help_text="every parameter but `type`, in schema order"
    )


class PromptLabelSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField(help_text="a `pending[].kind`")
    # the API's key; DRF's metaclass moves declared fields off the class (Field.label is not shadowed)
    label = serializers.CharField()  # type: ignore[assignment]
    help = serializers.CharField()


class CatalogueSerializer(serializers.Serializer[dict[str, Any]]):
    ruleset = serializers.CharField()
    language = serializers.CharField()
    rules_version = serializers.IntegerField()
    map = MapSerializer()
    factions = FactionSerializer(many=True)
    figures = FigureSerializer(many=True)
    cards = CardSerializer(many=True)
    commands = CommandLabelSerializer(many=True)
    choices = serializers.DictField(
        child=serializers.CharField(),
        help_text="words for command values: `<pending kind>.<value>`, `<command type>.<value>` "
        "or `<value>` -> localized label (e.g. `war_upgrade_timing.first`, `pass`)",
    )
    prompts = PromptLabelSerializer(many=True)
