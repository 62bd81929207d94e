"""The sign-up form (the API's username and password rules) and the lobby's create-game form. Options arrive as the JSON object the page's
script builds from the ruleset's options schema; the lobby service validates it
against that schema (the same check as POST /api/v1/games)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext, gettext_lazy

from accounts import usernames


def refusal_words(refusal: usernames.UsernameRefused) -> str:
    """A refused user name in the page's language: accounts/usernames.py says it in
    English for the API, which translates by error code; the page says it by its kind."""
    if refusal.code == "taken":
        return gettext("That user name is taken (or looks like one that is).")
    return username_rule()


def username_rule() -> str:
    """accounts/usernames.py's USERNAME_HELP in the page's language."""
    return gettext("A user name is %(least)s to %(most)s letters, digits and @.+-_") % {
        "least": usernames.USERNAME_MIN,
        "most": usernames.USERNAME_MAX,
    }


class SignUpForm(forms.Form):
    """POST /api/v1/accounts/register's rules, from the same place
    (accounts/usernames.py): NFKC, 3-40 characters, not taken nor confusable
    with a taken name. Validation computes no hash; `save` does."""

    username = forms.CharField(
        label=gettext_lazy("User name"),
        max_length=usernames.USERNAME_INPUT_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "username", "maxlength": usernames.USERNAME_MAX}),
    )
    password1 = forms.CharField(
        label=gettext_lazy("Password"),
        strip=False,
        max_length=200,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=gettext_lazy("Password confirmation"),
        strip=False,
        max_length=200,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Here, not on the field: the numbers go into the sentence in the request's language.
        self.fields["username"].help_text = username_rule()

    def clean_username(self) -> str:
        try:
            name = usernames.clean(self.cleaned_data["username"])
            usernames.check_available(name)
        except usernames.UsernameRefused as exc:
            raise forms.ValidationError(refusal_words(exc), code=exc.code) from exc
        return name

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        p1, p2 = d.get("password1"), d.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", gettext_lazy("The two password fields didn't match."))
        elif p1 and "username" in d:
            try:
                validate_password(p1, user=get_user_model()(username=d["username"]))
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return d

    def save(self) -> User:
        """The new account; UsernameRefused if a look-alike won a race since clean()."""
        return usernames.create_account(self.cleaned_data["username"], self.cleaned_data["password1"])


# (value, label, seconds per decision): the choices offered in the lobby.
TIME_CONTROLS = [
    ("", gettext_lazy("Untimed"), None),
    ("1h", gettext_lazy("1 hour per decision"), 3600),
    ("1d", gettext_lazy("1 day per decision"), 86400),
    ("3d", gettext_lazy("3 days per decision"), 3 * 86400),
]


# (value, label): the server's bots (games/bots), strongest first.
BOT_KINDS = [
    ("heuristic", gettext_lazy("Heuristic (fast)")),
    ("mcts", gettext_lazy("Search (MCTS, 1 s a move)")),
    ("random", gettext_lazy("Random")),
]


class CreateGameForm(forms.Form):
    ruleset = forms.ChoiceField(label=gettext_lazy("Game"))
    players = forms.IntegerField(label=gettext_lazy("Players"), min_value=2, max_value=5, initial=3)
    name = forms.CharField(label=gettext_lazy("Name"), required=False, max_length=100)
    bots = forms.IntegerField(
        label=gettext_lazy("Bot seats"),
        min_value=0,
        max_value=4,
        initial=2,
        help_text=gettext_lazy("Bot seats; the game starts when every seat is taken."),
    )
    # Who plays the bot seats: the heuristic by default, since a person sitting down
    # against a bot wants an opponent that plays to the score (issue 17).
    bot_kind = forms.ChoiceField(
        label=gettext_lazy("Bots"),
        required=False,
        choices=BOT_KINDS,
        initial="heuristic",
        help_text=gettext_lazy("Who plays the bot seats."),
    )
    time = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        required=False,
        choices=[(v, label) for v, label, _ in TIME_CONTROLS],
    )
    private = forms.BooleanField(
        label=gettext_lazy("Private (invite link)"),
        required=False,
        help_text=gettext_lazy("Unlisted: share the invite link."),
    )
    options = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, rulesets: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset_field = self.fields["ruleset"]
        assert isinstance(ruleset_field, forms.ChoiceField)  # declared as one above
        ruleset_field.choices = [(r["id"], r["name"]) for r in rulesets]

    def clean_options(self) -> str:
        raw = self.cleaned_data.get("options") or "{}"
        try:
            value = json.loads(raw)
        except ValueError as exc:
            raise forms.ValidationError(gettext_lazy("The options must be a JSON object.")) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(gettext_lazy("The options must be a JSON object."))
        return raw

    def clean(self) -> dict[str, Any]:
        d = super().clean() or {}
        seconds = {v: s for v, _, s in TIME_CONTROLS}.get(d.get("time") or "")
        d["time_control"] = {"seconds_per_decision": seconds} if seconds else None
        d["bot_kind"] = d.get("bot_kind") or "heuristic"
        return d
