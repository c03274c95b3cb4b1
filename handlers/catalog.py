"""Sections (games), run platforms (mod loaders), categories and filter options."""

from modhub.errors import not_implemented


def get_category_tree(**kwargs):
    """List of CategoryNodeVO (getCategoriesTree, getCategoryTree)."""
    raise not_implemented("getCategoriesTree")


def list_sections(**kwargs):
    """List of SectionVO (listGames, listSections)."""
    raise not_implemented("listGames")


def get_section(**kwargs):
    """SectionVO of one section (getGame, getSection)."""
    raise not_implemented("getGame")


def get_filter_options(**kwargs):
    """SectionFilterOptionsVO of one section (getGameFilterOptions, getSectionFilterOptions)."""
    raise not_implemented("getGameFilterOptions")


def list_run_platforms(**kwargs):
    """List of RunPlatformVO (listModLoaders, listRunPlatforms)."""
    raise not_implemented("listModLoaders")


def get_run_platform(**kwargs):
    """RunPlatformVO of one run platform (getModLoader, getRunPlatform)."""
    raise not_implemented("getModLoader")
