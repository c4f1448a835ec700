package ui

import "github.com/labstack/echo/v4"

// pageRoutes registers the account pages.
func (s *UI) PageRoutes(e *echo.Echo) {
	e.GET("/entrar", s.loginForm)
	e.POST("/entrar", s.login)
	e.POST("/sair", s.logout)
	e.GET("/painel", s.panel, s.RequirePage())
	s.casePages(e)
	s.banPages(e)
	s.workflowPages(e)
	s.groupPages(e)
	s.clubPages(e)
	s.adminPages(e)
	s.publicPages(e)
}
