"""Sections (games), run platforms (mod loaders), categories and filter options."""

from models.catalog import taxonomy
from modhub.web import ok_tagged, platform, session


def get_category_tree(**_):
    """List of CategoryNodeVO (getCategoriesTree, getCategoryTree)."""
    return ok_tagged(taxonomy.category_tree(session(), display=platform().display))


def list_sections(**_):
    """List of SectionVO (listGames, listSections)."""
    return ok_tagged(taxonomy.list_sections(session(), display=platform().display))


def get_section(section_code: str, **_):
    """SectionVO of one section (getGame, getSection)."""
    return ok_tagged(taxonomy.get_section(session(), code=section_code, display=platform().display))


def get_filter_options(section_code: str, **_):
    """SectionFilterOptionsVO of one section (getGameFilterOptions, getSectionFilterOptions)."""
    return ok_tagged(taxonomy.filter_options(session(), section_code=section_code))


def list_run_platforms(**_):
    """List of RunPlatformVO (listModLoaders, listRunPlatforms)."""
    return ok_tagged(taxonomy.list_run_platforms(session(), display=platform().display))


def get_run_platform(code: str, **_):
    """RunPlatformVO of one run platform (getModLoader, getRunPlatform)."""
    return ok_tagged(taxonomy.get_run_platform(session(), code=code, display=platform().display))


def list_copyright_options(**_):
    """List of CopyrightOptionVO (listCopyrightOptions, an extension)."""
    return ok_tagged(taxonomy.copyright_options())
