"""modhub: the open HTTP/JSON API of a game-modding community platform."""

__version__ = "0.1.0"
