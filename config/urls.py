from django.http import HttpResponseRedirect
from django.urls import include, path

urlpatterns = [
    path("", lambda request: HttpResponseRedirect("/api/v1/docs")),
    path("api/v1/", include("api.urls")),
]
