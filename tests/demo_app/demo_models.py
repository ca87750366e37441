"""The demo application's ORM models: its own tables, plus the safety_profile_json column."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.persistence import SafetyProfileJSON


class Base(DeclarativeBase):
    pass


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)


class Action(Base):
    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    cost: Mapped[float | None] = mapped_column(Float)
    safety_profile_json: Mapped[SafetyProfile | None] = mapped_column(SafetyProfileJSON)


class ActionRun(Base):
    __tablename__ = "action_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    action_id: Mapped[int] = mapped_column(ForeignKey("actions.id", ondelete="CASCADE"))
    outcome: Mapped[str] = mapped_column(String(20))
