from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import URLPattern, include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from . import converters  # noqa: F401  (registers <int64:…> before the routes below use it)
from .views import accounts, anchors, board, catalogue, games, inbox, invitations, keys, meta, play
from .views import audit as audit_views


def p(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    """Each path without and with a trailing slash (api.md: both are accepted)."""
    return [path(route, view, name=name), path(route + "/", view)]


urlpatterns = [
    *p("accounts/register", accounts.RegisterView.as_view(), "register"),
    *p("accounts/token", accounts.TokenView.as_view(), "token"),
    *p("accounts/me", accounts.MeView.as_view(), "me"),
    *p("accounts/me/games", inbox.InboxView.as_view(), "my-games"),
    *p("accounts/me/invitations", invitations.MyInvitationsView.as_view(), "my-invitations"),
    *p("accounts/me/invitations/<str:game_id>", invitations.MyInvitationView.as_view(), "my-invitation"),
    *p("accounts/logout", accounts.LogoutView.as_view(), "logout"),
    *p("accounts/logout-all", accounts.LogoutAllView.as_view(), "logout-all"),
    *p("accounts/me/password", accounts.PasswordView.as_view(), "password"),
    *p("accounts/me/tokens/<int64:token_id>", accounts.TokenRevokeView.as_view(), "token-revoke"),
    *p("rulesets", games.RulesetsView.as_view(), "rulesets"),
    *p("rulesets/<str:ruleset_id>/catalogue", catalogue.CatalogueView.as_view(), "ruleset-catalogue"),
    *p("games", games.GamesView.as_view(), "games"),
    *p("games/<str:game_id>", games.GameView.as_view(), "game"),
    *p("games/<str:game_id>/seats", games.SeatsView.as_view(), "seats"),
    *p("games/<str:game_id>/seats/<int64:index>/entropy", games.EntropyView.as_view(), "seat-entropy"),
    *p("games/<str:game_id>/start", games.StartView.as_view(), "start"),
    *p("games/<str:game_id>/invite-code", games.InviteView.as_view(), "invite-code"),
    *p("games/<str:game_id>/invitations", invitations.GameInvitationsView.as_view(), "invitations"),
    *p("games/<str:game_id>/view", play.StateView.as_view(), "view"),
    *p("games/<str:game_id>/board.svg", board.BoardView.as_view(), "board-svg"),
    *p("games/<str:game_id>/legal-commands", play.LegalView.as_view(), "legal"),
    *p("games/<str:game_id>/commands", play.CommandsView.as_view(), "commands"),
    *p("games/<str:game_id>/events", play.EventsView.as_view(), "events"),
    *p("games/<str:game_id>/replay", play.ReplayView.as_view(), "replay"),
    *p("games/<str:game_id>/audit", play.AuditView.as_view(), "audit"),
    *p("games/<str:game_id>/scoring", audit_views.ScoringView.as_view(), "scoring"),
    *p("games/<str:game_id>/export", play.ExportView.as_view(), "export"),
    *p("health", meta.HealthView.as_view(), "health"),
    *p("keys", keys.KeysView.as_view(), "keys"),
    *p("anchors", anchors.AnchorsView.as_view(), "anchors"),
    path("", include("api.urls_pbem")),
    path("", include("api.urls_audit")),
    re_path(r"^schema/?$", meta.SchemaView.as_view(), name="schema"),
    # Swagger UI from our own template: drf-spectacular's page has an inline script and
    # style, which the Content-Security-Policy refuses (web/templates/web/api_docs.html).
    re_path(
        r"^docs/?$",
        SpectacularSwaggerView.as_view(url_name="schema", template_name="web/api_docs.html"),
        name="docs",
    ),
]
